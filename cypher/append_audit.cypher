// Append ledger entries (never updated, never deleted except by purge of their subject's content).
// $tenant  tenant id
// $known   known time of the write
// $rows    list of {event_id, action, subject_id, detail (JSON text)}
// returns: appended
UNWIND $rows AS row
CREATE (a:AuditEvent {event_id: row.event_id, tenant: $tenant, at: $known, action: row.action,
                      subject_id: row.subject_id, detail: row.detail})
RETURN count(a) AS appended
