// Summary versions of the tenant believed at a known time, in the given states, with their trace.
// $tenant    tenant id
// $known_at  known-time point (far future = believed now)
// $states    states to return
// returns: summary, trace
MATCH (s:Summary)
WHERE s.tenant = $tenant AND @state_at(s, $known_at) IN $states
  AND @believed_at(s, $known_at)
RETURN s {.*, flag: @flag_at(s, $known_at)} AS summary,
       [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace
ORDER BY s.known_from, s.summary_id
