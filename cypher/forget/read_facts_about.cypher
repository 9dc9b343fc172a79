// The next batch of facts (by fact id) about the given entities, as subject or object at any known time, not yet
// forgotten: the documented rule of forgetting an entity (every fact naming it goes).
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant      tenant id
// $entity_ids  entity ids
// $limit       batch size
// returns: fact_id
MATCH (f:Fact)
WHERE (f.subject_id IN $entity_ids OR f.object_id IN $entity_ids) AND f.tenant = $tenant AND f.forgotten_at IS NULL
RETURN DISTINCT f.fact_id AS fact_id
LIMIT $limit
