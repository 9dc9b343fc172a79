// Close a write: store its known time on the tenant's clock (locked since tick_clock) and append its ledger
// entries (never updated, never deleted except by purge of their subject's content); the last query before commit.
// $tenant  tenant id (the clock's)
// $known   known time of the write
// $rows    list of {event_id, tenant, action, subject_id, detail (JSON text)}
// returns: appended
MATCH (c:Clock {tenant: $tenant})
SET c.last = $known
WITH c
UNWIND $rows AS row
CREATE (a:AuditEvent {event_id: row.event_id, tenant: row.tenant, at: $known, action: row.action,
                      subject_id: row.subject_id, detail: row.detail})
RETURN count(a) AS appended
