// Draw DEPENDS_ON edges from dependent versions to premise versions; edges sharing a justification id are ANDed.
// $known  known time of the write
// $rows   list of {from_id (dependent version id), to_id (premise version id), justification, valid_from, valid_to}
// returns: created
UNWIND $rows AS row
MATCH (f:Fact {version_id: row.from_id})
MATCH (p:Fact {version_id: row.to_id})
CREATE (f)-[d:DEPENDS_ON {justification: row.justification, known_from: $known}]->(p)
SET d.valid_from = row.valid_from, d.valid_to = row.valid_to
RETURN count(d) AS created
