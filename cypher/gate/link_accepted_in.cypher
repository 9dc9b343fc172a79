// Record the human message that accepted an agent's conclusion: (version)-[:ACCEPTED_IN]->(message).
// $known  known time of the write
// $rows   list of {version_id, source_id}
// returns: linked
UNWIND $rows AS row
MATCH (f:Fact {version_id: row.version_id})
MATCH (s:Source {source_id: row.source_id})
CREATE (f)-[:ACCEPTED_IN {known_from: $known}]->(s)
RETURN count(*) AS linked
