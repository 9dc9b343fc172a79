// Close a write whose cascade left its fact flags to this statement (one round trip fewer): flag the current fact
// versions as create_state_flags does (one :StateChange node holding what the flags share, one FLAGGED edge per
// version with its state, known interval and cause index, its previous open flag closed where the degree says there
// is one; only versions still believed are flagged, so the caller refuses a raced write), then store the write's
// known time and the ledger chain's new head on the tenant's clock (locked since tick_clock) and append its ledger
// entries, as finish_write does; the last query before commit.
// $tenant  tenant id (the clock's, and the flagged versions')
// $known   known time of the write
// $change  {change_id, kind, actor, reason, verified_at (or null), causes (list of lines), roots (list of fact ids)}
// $flags   list of {version_id, state, cause (index into $change.causes; null for the first line or none), path (the fact ids from the root joined by " -> ", or null)}
// $seq     the chain's new head position (unchanged when the write appends nothing)
// $head    the hash of the chain's new last event (unchanged when the write appends nothing)
// $rows    list of {event_id, tenant, seq, action, subject_id, ids, actor, on_behalf_of, reason, detail (JSON text), prev_hash, hash,
//          reason_commit, detail_commit, on_behalf_of_commit (salted commitments of the free text, or null)}
// returns: appended, flagged (list of version ids actually flagged), statements (their statements, same order)
CALL () {
  @new_state_change(c, $known)
  WITH c
  UNWIND $flags AS row
  MATCH (v:Fact {version_id: row.version_id})
  WHERE v.tenant = $tenant AND v.known_to IS NULL
  @flag_version(v, c)
  RETURN collect(v.version_id) AS flagged, collect(v.statement) AS statements
}
MATCH (clock:Clock {tenant: $tenant})
SET clock.last = $known, clock.ledger_seq = $seq, clock.ledger_head = $head
WITH flagged, statements
CALL () {
  UNWIND $rows AS row
  CREATE (a:AuditEvent {event_id: row.event_id, tenant: row.tenant, seq: row.seq, at: $known, action: row.action,
                        subject_id: row.subject_id, ids: row.ids, actor: row.actor, on_behalf_of: row.on_behalf_of, reason: row.reason,
                        detail: row.detail, prev_hash: row.prev_hash, hash: row.hash, reason_commit: row.reason_commit,
                        detail_commit: row.detail_commit, on_behalf_of_commit: row.on_behalf_of_commit})
  RETURN count(a) AS appended
}
RETURN appended, flagged, statements
