// Vector probe of the fact index with a forgotten embedding: near hits in the tenant at any known time.
// $tenant      tenant id
// $vector      the embedding captured before it was removed
// $candidates  how many nearest nodes to take from the index
// returns: version_id, fact_id, score
CALL db.index.vector.queryNodes('fact_embedding', $candidates, $vector) YIELD node, score
WITH node, score WHERE node.tenant = $tenant
RETURN node.version_id AS version_id, node.fact_id AS fact_id, score
