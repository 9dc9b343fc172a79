// Fact versions of a named subject as of a (valid, known) point, in one round trip: the name is resolved as
// read_entity.cypher resolves it (normalised name or alias, the merges believed at known_at, every id merged into
// it then), then filtered by state and the optional fields as read_facts_by_subject.cypher does.
// $tenant         tenant id
// $norm           normalised subject name
// $object_norm    normalised object entity name or null (an object name nobody has gives no fact)
// $object_value   literal object text or null
// $predicate      predicate name or null
// $scope_key      canonical scope text or null (any scope)
// $valid_at       valid-time point (ISO 8601 text with offset)
// $known_at       known-time point (ISO 8601 text with offset; far future = believed now)
// $states         states to return
// $include_undated  also return versions whose valid_from is unknown
// $any_valid      ignore valid time (history reads)
// $levels         sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact (instants as ISO 8601 text), premised (the version rests on premises: its support must be
//          checked); no row when the name resolves to no entity
// the points travel as text: the driver's pure-Python datetime packing cost more than the query
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
CALL (known_at) {
  // the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
  OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: $norm}) USING INDEX direct:Entity(tenant, norm)
  OPTIONAL MATCH (:Alias {tenant: $tenant, norm: $norm})-[:ALIAS_OF]->(aliased:Entity)
  WITH known_at, coalesce(direct, aliased) AS e
  // merges chain (Kay -> K. -> Katherine): follow every believed MERGED_INTO hop to the end of the chain
  @merged_into(e, known_at)
  WITH known_at, coalesce(keep, e) AS c
  @merged_from(c, known_at)
  WITH c, collect(DISTINCT other.entity_id) AS merged
  RETURN CASE WHEN c IS NULL THEN [] ELSE [c.entity_id] + merged END AS ids
}
CALL (known_at) {
  // the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
  OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: $object_norm}) USING INDEX direct:Entity(tenant, norm)
  OPTIONAL MATCH (:Alias {tenant: $tenant, norm: $object_norm})-[:ALIAS_OF]->(aliased:Entity)
  WITH known_at, coalesce(direct, aliased) AS e
  // merges chain (Kay -> K. -> Katherine): follow every believed MERGED_INTO hop to the end of the chain
  @merged_into(e, known_at)
  WITH known_at, coalesce(keep, e) AS c
  @merged_from(c, known_at)
  WITH c, collect(DISTINCT other.entity_id) AS merged
  RETURN CASE WHEN c IS NULL THEN [] ELSE [c.entity_id] + merged END AS object_ids
}
WITH valid_at, known_at, ids, object_ids WHERE size(ids) > 0
MATCH (f:Fact)
USING INDEX f:Fact(subject_id)
WHERE f.subject_id IN ids AND f.tenant = $tenant
  AND ($predicate IS NULL OR f.predicate = $predicate)
  AND ($object_norm IS NULL OR f.object_id IN object_ids)
  AND ($object_value IS NULL OR f.object_value = $object_value)
  AND @as_of(f, known_at, valid_at)
RETURN @fact_at(f, known_at) AS fact, @premised(f) AS premised
ORDER BY f.valid_from, f.known_from
