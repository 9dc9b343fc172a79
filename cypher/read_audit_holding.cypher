// Ledger entries of a tenant whose detail contains one of the given texts (forgotten content the ledger must not
// keep; only a content-free tombstone is allowed).
// $tenant  tenant id
// $texts   content texts
// returns: event_id
MATCH (a:AuditEvent)
WHERE a.tenant = $tenant AND any(t IN $texts WHERE a.detail CONTAINS t)
RETURN a.event_id AS event_id
