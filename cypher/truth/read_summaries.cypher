// Summary versions of the tenant believed at a known time, in the given states, with their trace: those the caller
// may see (a summary is as sensitive as its most sensitive input: cypher/fragments/visible_summary.cypher).
// $tenant    tenant id
// $known_at  known-time point (far future = believed now)
// $states    states to return
// $levels    sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// $after     [known_from (ISO 8601 text), summary id] of the version the page starts after (null: from the first)
// $limit     the most versions to return (a page and one more, to know whether another follows; ALL for all)
// returns: summary, trace
MATCH (s:Summary)
WHERE s.tenant = $tenant AND @state_at(s, $known_at) IN $states
  AND @believed_at(s, $known_at) AND @visible_summary(s, $levels)
  AND ($after IS NULL OR s.known_from > datetime($after[0])
       OR (s.known_from = datetime($after[0]) AND s.summary_id > $after[1]))
RETURN s {.*, flag: @flag_at(s, $known_at)} AS summary,
       [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace
ORDER BY s.known_from, s.summary_id
LIMIT $limit
