// Write a tenant's new write policy version: close the one in force (if any) at the write's known time and create
// the new one, known from then on. A policy is never deleted: its versions are its history, so a read at a past
// known time answers the policy then in force.
// $tenant     tenant id
// $known      known time of the write
// $policy_id  the new version's id (wp_...)
// $document   the policy as JSON text (schema/policy.py WritePolicy)
// $actor      who set it (the acting key's actor)
// returns: policy
OPTIONAL MATCH (old:WritePolicy {tenant: $tenant})
WHERE old.known_to IS NULL
SET old.known_to = $known
WITH count(old) AS closed
CREATE (p:WritePolicy {tenant: $tenant, policy_id: $policy_id, document: $document, set_by: $actor,
                       known_from: $known})
RETURN p {.*} AS policy
