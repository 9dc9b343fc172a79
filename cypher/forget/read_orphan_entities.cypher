// The entities that facts being forgotten name (subject or object, any version) and that no other remembered fact
// names, through merges (the rule of README "Forgetting": an entity named only by forgotten facts is forgotten with
// them; one that another remembered fact names stays). Every member of such an entity's merge family is returned,
// with its names, so their copies are scrubbed before the names go.
// clearance: not applied: forgetting reaches every name its targets leave behind, whatever the caller's
//   clearance; the targets themselves were checked first (graph/core/clearance.py)
// $tenant    tenant id
// $fact_ids  the facts being forgotten in this write (their versions may not be marked yet)
// returns: entity_id, names (its name and aliases)
MATCH (f:Fact)
WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
UNWIND [f.subject_id, f.object_id] AS id
WITH DISTINCT id WHERE id IS NOT NULL
MATCH (e:Entity {entity_id: id})
WHERE e.tenant = $tenant
CALL (e) {
  OPTIONAL MATCH (e)-[:MERGED_INTO*1..]-(o:Entity)
  WITH e, collect(DISTINCT o) AS merged
  RETURN [e] + merged AS family
}
WITH family, [m IN family | m.entity_id] AS ids
// by the id indexes: a tenant-wide scan here would read every version of the tenant
WHERE NOT EXISTS { MATCH (g:Fact) USING INDEX g:Fact(subject_id)
                   WHERE g.subject_id IN ids AND g.tenant = $tenant AND g.forgotten_at IS NULL
                     AND NOT g.fact_id IN $fact_ids }
  AND NOT EXISTS { MATCH (g:Fact) USING INDEX g:Fact(object_id)
                   WHERE g.object_id IN ids AND g.tenant = $tenant AND g.forgotten_at IS NULL
                     AND NOT g.fact_id IN $fact_ids }
UNWIND family AS m
WITH DISTINCT m WHERE m.forgotten_at IS NULL OR size(coalesce(m.aliases, [])) > 0
RETURN m.entity_id AS entity_id, [m.name] + coalesce(m.aliases, []) AS names
