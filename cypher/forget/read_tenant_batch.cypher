// The next batch of a tenant's not yet forgotten ids of one kind (fact, source, summary, entity or recipe).
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant  tenant id
// $kind    'fact' | 'source' | 'summary' | 'entity' | 'recipe'
// $limit   batch size
// returns: id
CALL (*) {
  WITH * WHERE $kind = 'fact'
  MATCH (f:Fact) WHERE f.tenant = $tenant AND f.forgotten_at IS NULL
  RETURN DISTINCT f.fact_id AS id LIMIT $limit
  UNION
  WITH * WHERE $kind = 'source'
  MATCH (s:Source) WHERE s.tenant = $tenant AND s.forgotten_at IS NULL
  RETURN s.source_id AS id LIMIT $limit
  UNION
  WITH * WHERE $kind = 'summary'
  MATCH (m:Summary) WHERE m.tenant = $tenant AND m.known_to IS NULL AND @state_at(m, null) <> 'forgotten'
  RETURN DISTINCT m.summary_id AS id LIMIT $limit
  UNION
  WITH * WHERE $kind = 'entity'
  MATCH (e:Entity) WHERE e.tenant = $tenant AND e.forgotten_at IS NULL
  RETURN e.entity_id AS id LIMIT $limit
  UNION
  WITH * WHERE $kind = 'recipe'
  MATCH (r:Recipe) WHERE r.tenant = $tenant AND r.forgotten_at IS NULL
  RETURN DISTINCT r.recipe_id AS id LIMIT $limit
}
RETURN id
