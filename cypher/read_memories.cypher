// Read the memories the tier sweep and the TTL consider: per fact id of the given kinds with a believed version,
// its kind, state, confidence and first known time, and its :Usage if it has one, with its recall counts.
// $tenant    tenant id
// $kinds     memory kinds taking part (episodic, semantic)
// $fact_id   one fact id, or null for all
// returns: fact_id, kind, state, confidence, created, tier, tier_since, uses, active_days, last_used, utility,
//          ttl_due_at, recalls (list of outcome texts)
MATCH (f:Fact {tenant: $tenant})
WHERE f.known_to IS NULL AND f.kind IN $kinds AND ($fact_id IS NULL OR f.fact_id = $fact_id)
WITH f.fact_id AS fact_id, collect(f)[0] AS head
MATCH (all:Fact {tenant: $tenant, fact_id: fact_id})
WITH fact_id, head, min(all.known_from) AS created
OPTIONAL MATCH (u:Usage {tenant: $tenant, fact_id: fact_id})
OPTIONAL MATCH (r:Recall {tenant: $tenant, fact_id: fact_id})
RETURN fact_id, head.kind AS kind, head.state AS state, head.confidence AS confidence, created,
       u.tier AS tier, u.tier_since AS tier_since, coalesce(u.uses, 0) AS uses,
       coalesce(u.active_days, 0) AS active_days, u.last_used AS last_used, coalesce(u.utility, 0.0) AS utility,
       u.ttl_due_at AS ttl_due_at, collect(r.outcome) AS recalls
ORDER BY fact_id
