// Release an extraction run's claim on its messages (after a failure); consumed marks are untouched.
// $tenant    tenant id
// $claim_id  extraction run id
// returns: released
MATCH (s:Source {claimed_by: $claim_id})
WHERE s.tenant = $tenant
REMOVE s.claimed_by, s.claim_expires
RETURN count(s) AS released
