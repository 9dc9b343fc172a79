// Close a write: store its known time and the ledger chain's new head on the tenant's clock (locked since
// tick_clock) and append its ledger entries (never updated, never deleted); the last query before commit.
// $tenant  tenant id (the clock's)
// $known   known time of the write
// $seq     the chain's new head position (unchanged when the write appends nothing)
// $head    the hash of the chain's new last event (unchanged when the write appends nothing)
// $rows    list of {event_id, tenant, seq, action, subject_id, ids, actor, on_behalf_of, reason, detail (JSON text), prev_hash, hash,
//          reason_commit, detail_commit, on_behalf_of_commit (salted commitments of the free text, or null)}
// returns: appended
MATCH (c:Clock {tenant: $tenant})
SET c.last = $known, c.ledger_seq = $seq, c.ledger_head = $head
WITH c
UNWIND $rows AS row
CREATE (a:AuditEvent {event_id: row.event_id, tenant: row.tenant, seq: row.seq, at: $known, action: row.action,
                      subject_id: row.subject_id, ids: row.ids, actor: row.actor, on_behalf_of: row.on_behalf_of, reason: row.reason,
                      detail: row.detail, prev_hash: row.prev_hash, hash: row.hash, reason_commit: row.reason_commit,
                      detail_commit: row.detail_commit, on_behalf_of_commit: row.on_behalf_of_commit})
RETURN count(a) AS appended
