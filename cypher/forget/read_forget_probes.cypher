// The content of facts about to be forgotten (every version), read before it is removed so the residue checks can
// search the indexes with it; it is held until purge (in memory and in a :ForgetProbe node, save_forget_probe).
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant    tenant id
// $fact_ids  fact ids
// returns: fact_id, statements, quotes, literals (literal object texts), embeddings, versions (current version ids
//          and states), sources (ids of sources any version cites)
MATCH (f:Fact)
WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
WITH f.fact_id AS fact_id, collect(f) AS vs
RETURN fact_id,
       [x IN collect { UNWIND vs AS v WITH DISTINCT v.statement AS s WHERE s IS NOT NULL RETURN s } | x] AS statements,
       [x IN collect { UNWIND vs AS v WITH DISTINCT v.quote AS q WHERE q IS NOT NULL RETURN q } | x] AS quotes,
       [x IN collect { UNWIND vs AS v WITH DISTINCT v WHERE v.object_type <> 'entity' AND v.object_value IS NOT NULL
                       RETURN v.object_value } | x] AS literals,
       [x IN collect { UNWIND vs AS v WITH v WHERE v.embedding IS NOT NULL RETURN v.embedding LIMIT 3 } | x] AS embeddings,
       [v IN vs WHERE v.known_to IS NULL | {version_id: v.version_id, state: @state_at(v, null)}] AS versions,
       collect { UNWIND vs AS v MATCH (v)-[:SOURCED_FROM|ACCEPTED_IN]->(s:Source) RETURN DISTINCT s.source_id } AS sources
