// Versions of the given facts believed at a known time (far future = believed now), whatever the caller's clearance:
// truth maintenance (the cascade, a justification's verdict, a summary's trace) judges every premise; `visible` says
// whether the caller may see each, and a read serving content keeps only those (graph/truth/dependencies.py).
// $tenant    tenant id
// $fact_ids  fact ids
// $known_at  known-time point
// $levels    sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: fact, visible
UNWIND $fact_ids AS id
MATCH (f:Fact {fact_id: id})
WHERE f.tenant = $tenant AND @believed_at(f, $known_at)
RETURN f {@fact_fields(f, $known_at), disputed: false} AS fact, @visible(f, $levels) AS visible
