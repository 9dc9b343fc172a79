// Flag current fact versions with a new lifecycle state, known from this write: one :StateChange node for the
// write carrying what every flag of it shares (kind, actor, reason, verification time, the cause lines and the roots
// they name) and one FLAGGED edge per version carrying only what a read at a known point needs: the state, its own
// known interval and its cause (an index into the node's cause lines, and the path from the root for a cascade).
// The version's previous open flag (if any: a degree check, no walk of its relationships otherwise) stops being
// believed now. The versions themselves are not touched (their history stays immutable). Only versions still
// believed are flagged, so a raced write sees fewer ids than it asked for.
// $tenant  tenant id
// $known   known time of the write
// $change  {change_id, kind, actor, reason, verified_at (or null), causes (list of lines), roots (list of fact ids)}
// $rows    list of {version_id, state, cause (index into $change.causes; null for the first line or none), path (the fact ids from the root joined by " -> ", or null)}
// returns: flagged (list of version ids actually flagged), statements (their statements, in the same order)
@new_state_change(c, $known)
WITH c
UNWIND $rows AS row
MATCH (v:Fact {version_id: row.version_id})
WHERE v.tenant = $tenant AND v.known_to IS NULL
@flag_version(v, c)
RETURN collect(v.version_id) AS flagged, collect(v.statement) AS statements
