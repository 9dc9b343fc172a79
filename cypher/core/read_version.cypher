// One fact version by its version id, if the caller may see it.
// $tenant      tenant id
// $version_id  version id
// $known_at  disputed is reported as believed at this known time (far future = now)
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact
MATCH (f:Fact {version_id: $version_id})
WHERE f.tenant = $tenant AND @visible(f, $levels)
RETURN f {@fact_fields(f, $known_at), disputed: @disputed_at(f, $known_at)} AS fact
