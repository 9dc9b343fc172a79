// Every version of a fact, oldest belief first.
// $tenant   tenant id
// $fact_id  fact id
// returns: fact
MATCH (f:Fact {fact_id: $fact_id})
WHERE f.tenant = $tenant
RETURN f {.*, embedding: null, disputed: EXISTS { (:Fact)-[c:CONFLICTS_WITH]->(f) WHERE c.known_to IS NULL }} AS fact
ORDER BY f.known_from, f.valid_from
