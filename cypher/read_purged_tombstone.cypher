// The tombstone of a purged id, from the ledger: the purge event naming it (content-free: when it was forgotten,
// by whom, why, and when its nodes were deleted).
// $tenant  tenant id
// $id      a purged fact, source, entity or summary id
// returns: purged_at, reason, detail (JSON text: kind, forgotten_at, forgotten_by, forgotten_on_behalf_of, with); no
//          row when never purged
MATCH (a:AuditEvent {tenant: $tenant, subject_id: $id})
WHERE a.action = 'purge'
RETURN a.at AS purged_at, a.reason AS reason, a.detail AS detail
ORDER BY a.seq DESC
LIMIT 1
