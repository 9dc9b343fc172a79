// Record that a kept-not-applied challenger disputes established versions.
// $known  known time of the write
// $rows   list of {conflict_id, challenger_id, established_id}
// returns: created
UNWIND $rows AS row
MATCH (c:Fact {version_id: row.challenger_id})
MATCH (e:Fact {version_id: row.established_id})
CREATE (c)-[:CONFLICTS_WITH {conflict_id: row.conflict_id, status: 'open', known_from: $known}]->(e)
RETURN count(*) AS created
