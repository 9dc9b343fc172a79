// How many fact versions whose belief began or ended in the known window ($known_before, $known_after] the caller
// may not see: the transition check counts them as withheld, never names them.
// $tenant         tenant id
// $known_before   the window's start (excluded)
// $known_after    the window's end (included)
// $scope_key      canonical scope text, or null for every scope
// $levels         sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: hidden
MATCH (f:Fact)
WHERE f.tenant = $tenant AND NOT @visible(f, $levels)
  AND ((f.known_from > $known_before AND f.known_from <= $known_after)
       OR (f.known_to > $known_before AND f.known_to <= $known_after))
  AND ($scope_key IS NULL OR f.scope_key = $scope_key)
RETURN count(f) AS hidden
