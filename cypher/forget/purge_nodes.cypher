// Purge (forgotten -> deleted): remove the tombstoned nodes themselves with their edges, then the forgotten entities
// the purged facts named (or that were forgotten with them) once no fact names them any more.
// $tenant        tenant id
// $fact_ids      fact ids (every version)
// $source_ids    source ids
// $entity_ids    entity ids
// $summary_ids   summary ids (every version)
// $recipe_ids    recipe ids (every version)
// $with_entities entities forgotten with the target (named only by its forgotten facts)
// returns: deleted (count of target nodes), entities (list of {id, at, by, behalf, reason} of the entities deleted
//          with them)
CALL () {
  MATCH (f:Fact)
  WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
  UNWIND [f.subject_id, f.object_id] AS id
  RETURN collect(DISTINCT id) AS named
}
CALL () {
  MATCH (n)
  WHERE n.tenant = $tenant AND ((n:Fact AND n.fact_id IN $fact_ids) OR (n:Source AND n.source_id IN $source_ids)
        OR (n:Entity AND n.entity_id IN $entity_ids) OR (n:Summary AND n.summary_id IN $summary_ids)
        OR (n:Recipe AND n.recipe_id IN $recipe_ids))
  DETACH DELETE n
  RETURN count(*) AS deleted
}
CALL (named) {
  UNWIND named + $with_entities AS id
  MATCH (e:Entity {entity_id: id})
  WHERE e.tenant = $tenant AND e.forgotten_at IS NOT NULL AND NOT id IN $entity_ids
    AND NOT EXISTS { MATCH (g:Fact) USING INDEX g:Fact(subject_id) WHERE g.subject_id = id AND g.tenant = $tenant }
    AND NOT EXISTS { MATCH (g:Fact) USING INDEX g:Fact(object_id) WHERE g.object_id = id AND g.tenant = $tenant }
  WITH DISTINCT e
  WITH e, {id: e.entity_id, at: e.forgotten_at, by: e.forgotten_by, behalf: e.forgotten_on_behalf_of,
           reason: e.forgotten_reason} AS gone
  DETACH DELETE e
  RETURN collect(gone) AS entities
}
RETURN deleted, entities
