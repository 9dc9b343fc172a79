// Places that still hold an entity's names: its node, aliases, and facts about it not yet forgotten.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant      tenant id
// $entity_ids  entity ids
// returns: place, ref, detail
MATCH (e:Entity)
WHERE e.entity_id IN $entity_ids AND e.tenant = $tenant
CALL (e) {
  WITH e WHERE e.forgotten_at IS NULL OR size(coalesce(e.aliases, [])) > 0
  RETURN 'node property' AS place, e.entity_id AS ref, 'entity keeps its name or aliases' AS detail
  UNION
  MATCH (a:Alias)-[:ALIAS_OF]->(e)
  RETURN 'alias' AS place, a.norm AS ref, 'an alias still names the entity' AS detail
  UNION
  MATCH (f:Fact) WHERE (f.subject_id = e.entity_id OR f.object_id = e.entity_id) AND f.forgotten_at IS NULL
  RETURN 'node property' AS place, f.version_id AS ref, 'a fact about the entity is not forgotten' AS detail
}
RETURN DISTINCT place, ref, detail
