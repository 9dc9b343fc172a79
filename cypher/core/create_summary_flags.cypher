// Flag current summary versions with a new lifecycle state (stale, or green again), known from this write: one
// :StateChange node for the write and one FLAGGED edge per summary version, in create_state_flags' shape (what the
// flags share on the node, the state, known interval and cause index on the edge); the summary's previous open flag
// stops being believed now; the version itself (text, trace) is not touched.
// $tenant  tenant id
// $known   known time of the write
// $change  {change_id, kind, actor, reason, verified_at (or null), causes (list of lines), roots (list of ids)}
// $rows    list of {version_id, state, cause (index into $change.causes; null for the first line or none), path (null)}
// returns: flagged (list of version ids actually flagged)
@new_state_change(c, $known)
WITH c
UNWIND $rows AS row
MATCH (v:Summary {version_id: row.version_id})
WHERE v.tenant = $tenant AND v.known_to IS NULL
@flag_version(v, c)
RETURN collect(v.version_id) AS flagged
