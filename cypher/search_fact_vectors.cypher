// Nearest fact versions to a vector within one tenant, believed now.
// $tenant  tenant id
// $vector  query embedding (384 floats)
// $k       how many
// returns: version_id, statement, score
CALL db.index.vector.queryNodes('fact_embedding', $k * 10, $vector) YIELD node, score
WHERE node.tenant = $tenant AND node.known_to IS NULL
RETURN node.version_id AS version_id, node.statement AS statement, score
ORDER BY score DESC
LIMIT $k
