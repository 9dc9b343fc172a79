// Store what a sweep decided for memories: their tier (and since when) and when their episodic TTL fell due.
// $tenant  tenant id
// $rows    list of {fact_id, tier, tier_since, ttl_due_at (or null)}
// returns: updated
UNWIND $rows AS row
MERGE (u:Usage {tenant: $tenant, fact_id: row.fact_id})
  ON CREATE SET u.uses = 0, u.active_days = 0, u.utility = 0.0
SET u.tier = row.tier, u.tier_since = row.tier_since, u.ttl_due_at = row.ttl_due_at
RETURN count(u) AS updated
