// Flag current fact versions with a new lifecycle state, known from this write: one :StateChange node for the
// write (kind, actor, reason) and one FLAGGED edge per version carrying the state, the cause, the state it left
// and its own known interval; the version's previous open flag (if any) stops being believed now. The versions
// themselves are not touched (their history stays immutable). Only versions still believed are flagged, so a
// raced write sees fewer ids than it asked for.
// $tenant  tenant id
// $known   known time of the write
// $change  {change_id, kind, actor, reason}
// $rows    list of {version_id, state, from_state, cause (or null), verified_at (or null)}
// returns: flagged (list of version ids actually flagged), statements (their statements, in the same order)
CREATE (c:StateChange {tenant: $tenant, change_id: $change.change_id, kind: $change.kind, actor: $change.actor,
                       reason: $change.reason, at: $known})
WITH c
UNWIND $rows AS row
MATCH (v:Fact {version_id: row.version_id})
WHERE v.tenant = $tenant AND v.known_to IS NULL
CALL (v) {
  MATCH (v)-[open:FLAGGED]->(:StateChange)
  WHERE open.known_to IS NULL
  SET open.known_to = $known
}
CREATE (v)-[:FLAGGED {state: row.state, from_state: row.from_state, cause: row.cause, actor: $change.actor,
                      reason: $change.reason, verified_at: row.verified_at, known_from: $known}]->(c)
RETURN collect(v.version_id) AS flagged, collect(v.statement) AS statements
