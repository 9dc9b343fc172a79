// Record premises: (version)-[:DEPENDS_ON {justification}]->(premise version); one justification id ANDs them.
// $known  known time of the write
// $rows   list of {version_id, premise_version_id, justification}
// returns: linked
UNWIND $rows AS row
MATCH (f:Fact {version_id: row.version_id})
MATCH (p:Fact {version_id: row.premise_version_id})
CREATE (f)-[:DEPENDS_ON {justification: row.justification, known_from: $known}]->(p)
RETURN count(*) AS linked
