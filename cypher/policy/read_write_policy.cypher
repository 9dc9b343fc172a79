// The tenant's write policy version in force at a known time ($known null: now), or no row when the tenant never
// set one before then (the default policy, DESIGN §9, applies). Read once by every write transaction.
// clearance: not applied: a tenant's write policy is configuration with no sensitivity label, read by every write
// whatever the caller's clearance (the policy governs them all)
// $tenant  tenant id
// $known   known time of the read, or null for now
// returns: policy
MATCH (p:WritePolicy {tenant: $tenant})
WHERE CASE WHEN $known IS NULL THEN p.known_to IS NULL ELSE @believed_at(p, $known) END
RETURN p {.*} AS policy
ORDER BY p.known_from DESC
LIMIT 1
