// Summary versions of the given summary ids believed at a known time, with their trace.
// $tenant       tenant id
// $summary_ids  summary ids
// $known_at     known-time point (far future = believed now)
// returns: summary, trace
UNWIND $summary_ids AS id
MATCH (s:Summary {summary_id: id})
WHERE s.tenant = $tenant AND @believed_at(s, $known_at)
RETURN s {.*, flag: @flag_at(s, $known_at)} AS summary,
       [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace
