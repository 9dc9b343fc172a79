// Versions of the given facts believed at a known time (far future = believed now).
// $tenant    tenant id
// $fact_ids  fact ids
// $known_at  known-time point
// returns: fact
UNWIND $fact_ids AS id
MATCH (f:Fact {fact_id: id})
WHERE f.tenant = $tenant AND @believed_at(f, $known_at)
RETURN f {.*, embedding: null, flag: @flag_at(f, $known_at), disputed: false} AS fact
