// The as-of window of a fact read, a conjunction to follow WHERE or AND: version VERSION is in scope $scope_key
// (null: any scope), believed at known point POINT (believed_at.cypher), in one of $states then (state_at.cypher),
// visible to the caller ($levels, visible.cypher) and valid at valid point VALID: started by then and not ended, or
// with an unknown start and not ended when $include_undated, or at any valid time when $any_valid (history reads).
// POINT and VALID are variables (the statement's datetime($known_at), datetime($valid_at)).
($scope_key IS NULL OR VERSION.scope_key = $scope_key)
AND @believed_at(VERSION, POINT)
AND @state_at(VERSION, POINT) IN $states
AND @visible(VERSION, $levels)
AND ($any_valid
     OR (VERSION.valid_from IS NOT NULL AND VERSION.valid_from <= VALID AND (VERSION.valid_to IS NULL OR VERSION.valid_to > VALID))
     OR ($include_undated AND VERSION.valid_from IS NULL AND (VERSION.valid_to IS NULL OR VERSION.valid_to > VALID)))
