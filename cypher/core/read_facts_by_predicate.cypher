// Fact versions by predicate, as of a (valid, known) point, filtered by state and the optional fields.
// $tenant         tenant id
// $predicate      predicate name
// $object_id      object entity id or null
// $object_value   literal object text or null
// $scope_key      canonical scope text or null (any scope)
// $valid_at       valid-time point (ISO 8601 text with offset)
// $known_at       known-time point (ISO 8601 text with offset; far future = believed now)
// $states         states to return
// $include_undated  also return versions whose valid_from is unknown
// $any_valid      ignore valid time (history reads)
// $levels         sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// $skip           versions of the ordered answer to pass over (a page's raw offset; 0 for the whole answer)
// $limit          the most versions to return (one page and one more, to know whether another follows; ALL for all)
// returns: (plain values only) fact (instants as ISO 8601 text), premised (the version rests on premises: its
//   support at the point must be checked), in one total order (valid_from, unknown last; known_from; version id),
//   so the pages of a listing cut it in the query and add up to the whole answer
// the points travel as text: the driver's pure-Python datetime packing cost more than the query
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
MATCH (f:Fact)
WHERE f.tenant = $tenant AND f.predicate = $predicate
  AND ($object_id IS NULL OR f.object_id = $object_id)
  AND ($object_value IS NULL OR f.object_value = $object_value)
  AND @as_of(f, known_at, valid_at)
RETURN @fact_at(f, known_at) AS fact, @premised(f) AS premised
ORDER BY f.valid_from, f.known_from, f.version_id
SKIP $skip LIMIT $limit
