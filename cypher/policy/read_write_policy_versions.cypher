// One page of a tenant's write policy versions, newest first by a unique key (known_from, policy id), cut here by
// that key (keyset), never from the whole list: the versions known before the one the page starts after.
// clearance: not applied: a tenant's write policy is configuration with no sensitivity label (the read scope lists
// it, as it reads the policy in force)
// $tenant      tenant id
// $after_from  known_from of the version the page starts after (null: from the newest)
// $after_id    policy id of that version (null: from the newest)
// $limit       the most versions to return (a page and one more: the next page follows, and it is the version the
//              page's last one changed)
// returns: policy (the version's properties)
MATCH (p:WritePolicy {tenant: $tenant})
WHERE $after_id IS NULL OR p.known_from < $after_from
   OR (p.known_from = $after_from AND p.policy_id < $after_id)
WITH p ORDER BY p.known_from DESC, p.policy_id DESC
LIMIT $limit
RETURN p {.*} AS policy
ORDER BY policy.known_from DESC, policy.policy_id DESC
