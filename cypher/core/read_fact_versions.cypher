// Every version of a fact the caller may see, oldest belief first.
// $tenant   tenant id
// $fact_id  fact id
// $known_at  disputed is reported as believed at this known time (far future = now)
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact
MATCH (f:Fact {fact_id: $fact_id})
WHERE f.tenant = $tenant AND @visible(f, $levels)
RETURN f {@fact_fields(f, $known_at), disputed: @disputed_at(f, $known_at)} AS fact
ORDER BY f.known_from, f.valid_from
