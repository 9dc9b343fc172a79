// Record a verifier's verdict on one fact version the caller may see: a :Verification node linked from the version
// by VERIFIED_BY, known from the write's known time. It changes nothing on the version (evidence, epistemic status
// and state are untouched): a verdict is evidence of its own kind.
// $tenant      tenant id
// $version_id  the fact version judged
// $known       known time of the write
// $row         the verdict's properties (verification_id, fact_id, version_id, verifier, verdict, overreach_kind, reason, actor)
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: verification_id
MATCH (f:Fact {tenant: $tenant, version_id: $version_id})
WHERE @visible(f, $levels)
CREATE (f)-[:VERIFIED_BY]->(v:Verification)
SET v = $row, v.tenant = $tenant, v.known_from = $known, v.sensitivity = f.sensitivity
RETURN v.verification_id AS verification_id
