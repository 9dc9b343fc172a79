// One version of a tenant's write policy by its id (where a page of its versions starts after), or no row when the
// tenant has no version of that id.
// clearance: not applied: a tenant's write policy is configuration with no sensitivity label
// $tenant     tenant id
// $policy_id  the version's id (wp_...)
// returns: policy (the version's properties)
MATCH (p:WritePolicy {tenant: $tenant, policy_id: $policy_id})
RETURN p {.*} AS policy
