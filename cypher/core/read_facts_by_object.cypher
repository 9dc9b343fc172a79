// Fact versions by object, as of a (valid, known) point, filtered by state and the optional fields.
// $tenant         tenant id
// $entity_ids     object entity ids (the entity and every id merged into it)
// $predicate      predicate name or null
// $object_id      object entity id or null
// $object_value   literal object text or null
// $scope_key      canonical scope text or null (any scope)
// $valid_at       valid-time point (ISO 8601 text with offset)
// $known_at       known-time point (ISO 8601 text with offset; far future = believed now)
// $states         states to return
// $include_undated  also return versions whose valid_from is unknown
// $any_valid      ignore valid time (history reads)
// $levels         sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact (instants as ISO 8601 text)
// the points travel as text: the driver's pure-Python datetime packing cost more than the query
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
MATCH (f:Fact)
USING INDEX f:Fact(object_id)
WHERE f.object_id IN $entity_ids AND f.tenant = $tenant
  AND ($predicate IS NULL OR f.predicate = $predicate)
  AND ($object_id IS NULL OR f.object_id = $object_id)
  AND ($object_value IS NULL OR f.object_value = $object_value)
  AND @as_of(f, known_at, valid_at)
RETURN @fact_at(f, known_at) AS fact
ORDER BY f.valid_from, f.known_from
