// An entity and every entity merged into it (at any known time): the names forgetting an entity must remove.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant     tenant id
// $entity_id  entity id
// returns: entity_ids
MATCH (e:Entity {entity_id: $entity_id})
WHERE e.tenant = $tenant
OPTIONAL MATCH (o:Entity)-[:MERGED_INTO*1..]->(e)
WITH e.entity_id AS id, collect(DISTINCT o.entity_id) AS merged
RETURN [id] + merged AS entity_ids
