// The current version of each summary with its state (for the transition check) and every version id.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant       tenant id
// $summary_ids  summary ids
// returns: summary_id, state (of the current version, null when none), versions
MATCH (m:Summary)
WHERE m.summary_id IN $summary_ids AND m.tenant = $tenant
WITH m.summary_id AS summary_id, collect(m) AS vs
RETURN summary_id, [v IN vs WHERE v.known_to IS NULL | @state_at(v, null)][0] AS state, [v IN vs | v.version_id] AS versions
