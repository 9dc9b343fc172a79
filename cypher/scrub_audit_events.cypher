// Replace the detail of ledger entries that held forgotten content by a content-free note (action, subject and time
// stay).
// $tenant     tenant id
// $event_ids  event ids
// $detail     the content-free detail (JSON text)
// returns: scrubbed
MATCH (a:AuditEvent)
WHERE a.event_id IN $event_ids AND a.tenant = $tenant
SET a.detail = $detail
RETURN count(a) AS scrubbed
