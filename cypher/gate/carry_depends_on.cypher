// Carry only the premise edges (DEPENDS_ON, believed now) of a version to the version that replaces it.
// Used when a replacement rests on a new quote's word: the old evidence (SOURCED_FROM, ACCEPTED_IN) stays
// with the old version, but what the claim rests on is unchanged; the copies start being known at this write
// (cypher/fragments/carry_premises.cypher, shared with carry_version_edges.cypher).
// $known  known time of the write
// $rows   list of {old_id, new_id}
// returns: carried
UNWIND $rows AS row
MATCH (old:Fact {version_id: row.old_id})
MATCH (new:Fact {version_id: row.new_id})
@carry_premises(old, new)
RETURN count(c) AS carried
