// Carry only the premise edges (DEPENDS_ON, believed now) of a version to the version that replaces it.
// Used when a replacement rests on a new quote's word: the old evidence (SOURCED_FROM, ACCEPTED_IN) stays
// with the old version, but what the claim rests on is unchanged; the copies start being known at this write.
// $known  known time of the write
// $rows   list of {old_id, new_id}
// returns: carried
UNWIND $rows AS row
MATCH (old:Fact {version_id: row.old_id})-[r:DEPENDS_ON]->(p)
WHERE r.known_to IS NULL
MATCH (new:Fact {version_id: row.new_id})
CREATE (new)-[c:DEPENDS_ON]->(p)
SET c = properties(r), c.known_from = $known
RETURN count(c) AS carried
