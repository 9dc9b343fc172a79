// Every version of a fact, oldest belief first.
// $tenant   tenant id
// $fact_id  fact id
// $known_at  disputed is reported as believed at this known time (far future = now)
// returns: (plain values only) fact
MATCH (f:Fact {fact_id: $fact_id})
WHERE f.tenant = $tenant
RETURN f {.*, embedding: null, flag: @flag_at(f, $known_at), disputed: @disputed_at(f, $known_at)} AS fact
ORDER BY f.known_from, f.valid_from
