// Every version of a fact, oldest belief first.
// $tenant   tenant id
// $fact_id  fact id
// $known_at  disputed is reported as believed at this known time (far future = now)
// returns: fact
MATCH (f:Fact {fact_id: $fact_id})
WHERE f.tenant = $tenant
RETURN f {.*, embedding: null, flag: @flag_at(f, $known_at), disputed: EXISTS { (:Fact)-[c:CONFLICTS_WITH]->(f)
                                            WHERE c.known_from <= $known_at AND (c.known_to IS NULL OR c.known_to > $known_at) }} AS fact
ORDER BY f.known_from, f.valid_from
