// Summary versions of the given summary ids believed at a known time, with their trace: those the caller may see (a
// summary is as sensitive as its most sensitive input), so a summary above its clearance reads as missing.
// $tenant       tenant id
// $summary_ids  summary ids
// $known_at     known-time point (far future = believed now)
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: summary, trace
UNWIND $summary_ids AS id
MATCH (s:Summary {summary_id: id})
WHERE s.tenant = $tenant AND @believed_at(s, $known_at) AND @visible_summary(s, $levels)
RETURN s {.*, flag: @flag_at(s, $known_at)} AS summary,
       [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace
