// Purge (forgotten -> deleted): remove the tombstoned nodes themselves with their edges.
// $tenant       tenant id
// $fact_ids     fact ids (every version)
// $source_ids   source ids
// $entity_ids   entity ids
// $summary_ids  summary ids (every version)
// returns: deleted
MATCH (n)
WHERE n.tenant = $tenant AND ((n:Fact AND n.fact_id IN $fact_ids) OR (n:Source AND n.source_id IN $source_ids)
      OR (n:Entity AND n.entity_id IN $entity_ids) OR (n:Summary AND n.summary_id IN $summary_ids))
DETACH DELETE n
RETURN count(*) AS deleted
