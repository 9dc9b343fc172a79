// Summary versions of the tenant believed at a known time, in the given states, with their trace: those the caller
// may see (a summary is as sensitive as its most sensitive input: cypher/fragments/visible_summary.cypher).
// $tenant    tenant id
// $known_at  known-time point (far future = believed now)
// $states    states to return
// $levels    sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: summary, trace
MATCH (s:Summary)
WHERE s.tenant = $tenant AND @state_at(s, $known_at) IN $states
  AND @believed_at(s, $known_at) AND @visible_summary(s, $levels)
RETURN s {.*, flag: @flag_at(s, $known_at)} AS summary,
       [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace
ORDER BY s.known_from, s.summary_id
