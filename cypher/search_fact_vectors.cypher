// Nearest fact versions to a vector within one tenant, believed now (the index is shared by tenants, so the
// caller widens $candidates until the tenant has $k hits or the index has nothing more).
// $tenant      tenant id
// $vector      query embedding (384 floats)
// $candidates  how many nearest nodes to take from the index before filtering by tenant
// $k           how many to return
// returns: scanned (candidates the index gave), found (list of {version_id, statement, score}, best first)
CALL db.index.vector.queryNodes('fact_embedding', $candidates, $vector) YIELD node, score
WITH collect({node: node, score: score}) AS hits
RETURN size(hits) AS scanned,
       [h IN hits WHERE h.node.tenant = $tenant AND h.node.known_to IS NULL
        | {version_id: h.node.version_id, statement: h.node.statement, score: h.score}][0..$k] AS found
