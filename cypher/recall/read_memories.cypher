// Read memories with their utility ledger: per fact id of the given kinds (with a believed version, or any with
// clearance: not applied: the utility ledger's counters and tiers (no content); utility() answers NotFound for a
//   fact the caller may not see first
// $believed false), its latest version's kind, state and confidence, its first known time, and its :Usage if it
// has one, with its recall outcomes.
// $tenant    tenant id
// $kinds     memory kinds taking part (episodic, semantic)
// $fact_id   one fact id, or null for all
// $believed  true: only facts with a currently believed version (the sweep); false: any (one memory's ledger)
// returns: fact_id, kind, state, confidence, created, tier, tier_since, uses, active_days, last_used, utility,
//          ttl_due_at, recalls (list of outcome texts)
MATCH (f:Fact {tenant: $tenant})
WHERE f.kind IN $kinds AND ($fact_id IS NULL OR f.fact_id = $fact_id) AND (NOT $believed OR f.known_to IS NULL)
WITH f ORDER BY f.known_from DESC
WITH f.fact_id AS fact_id, collect(f)[0] AS head
MATCH (all:Fact {tenant: $tenant, fact_id: fact_id})
WITH fact_id, head, min(all.known_from) AS created
OPTIONAL MATCH (u:Usage {tenant: $tenant, fact_id: fact_id})
OPTIONAL MATCH (r:Recall {tenant: $tenant, fact_id: fact_id})
RETURN fact_id, head.kind AS kind, @state_at(head, null) AS state, head.confidence AS confidence, created,
       u.tier AS tier, u.tier_since AS tier_since, coalesce(u.uses, 0) AS uses,
       coalesce(u.active_days, 0) AS active_days, u.last_used AS last_used, coalesce(u.utility, 0.0) AS utility,
       u.ttl_due_at AS ttl_due_at, collect(r.outcome) AS recalls
ORDER BY fact_id
