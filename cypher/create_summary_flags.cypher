// Flag current summary versions with a new lifecycle state (stale, or green again), known from this write: one
// :StateChange node for the write and one FLAGGED edge per summary version, as create_state_flags does for facts;
// the summary's previous open flag stops being believed now; the version itself (text, trace) is not touched.
// $tenant  tenant id
// $known   known time of the write
// $change  {change_id, kind, actor, reason}
// $rows    list of {version_id, state, from_state, cause (or null)}
// returns: flagged (list of version ids actually flagged)
CREATE (c:StateChange {tenant: $tenant, change_id: $change.change_id, kind: $change.kind, actor: $change.actor,
                       reason: $change.reason, at: $known})
WITH c
UNWIND $rows AS row
MATCH (v:Summary {version_id: row.version_id})
WHERE v.tenant = $tenant AND v.known_to IS NULL
CALL (v) {
  MATCH (v)-[open:FLAGGED]->(:StateChange)
  WHERE open.known_to IS NULL
  SET open.known_to = $known
}
CREATE (v)-[:FLAGGED {state: row.state, from_state: row.from_state, cause: row.cause, actor: $change.actor,
                      reason: $change.reason, known_from: $known}]->(c)
RETURN collect(v.version_id) AS flagged
