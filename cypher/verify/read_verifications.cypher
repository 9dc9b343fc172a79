// The latest verdict recorded on each of the given fact versions as known at a point, for the versions the caller
// may see (a version above its clearance has no answer here).
// $tenant       tenant id
// $version_ids  fact version ids
// $known_at     the known-time point (a verdict recorded later is not yet known)
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: version_id, verification (the latest :Verification's properties)
UNWIND $version_ids AS version_id
MATCH (f:Fact {tenant: $tenant, version_id: version_id})-[:VERIFIED_BY]->(v:Verification)
WHERE @visible(f, $levels) AND v.known_from <= $known_at
WITH version_id, v ORDER BY v.known_from DESC, v.verification_id DESC
WITH version_id, collect(v)[0] AS latest
RETURN version_id, latest {.*} AS verification
