// Write an episode summary and its trace to the exact messages it was built from.
// $tenant  tenant id
// $known   known time of the write
// $props   {summary_id, version_id, kind, text, text_hash, state, session_id, generation}
// $inputs  list of {source_id, hash}
// returns: version_id
CREATE (m:Summary)
SET m = $props, m.tenant = $tenant, m.known_from = $known
WITH m
UNWIND $inputs AS input
MATCH (s:Source {source_id: input.source_id})
CREATE (m)-[:DERIVED_FROM {version_id: input.source_id, hash: input.hash, known_from: $known}]->(s)
RETURN DISTINCT m.version_id AS version_id
