// One fact version by its version id.
// $tenant      tenant id
// $version_id  version id
// $known_at  disputed is reported as believed at this known time (far future = now)
// returns: (plain values only) fact
MATCH (f:Fact {version_id: $version_id})
WHERE f.tenant = $tenant
RETURN f {.*, embedding: null, flag: @flag_at(f, $known_at), disputed: @disputed_at(f, $known_at)} AS fact
