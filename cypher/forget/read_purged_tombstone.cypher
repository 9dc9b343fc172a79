// The tombstone of a purged id, from the ledger: the purge event naming it (content-free: when it was forgotten,
// by whom, why, and when its nodes were deleted), and the label it recorded for what it deleted.
// clearance: not applied: the purged nodes are gone; services/forget/verify.py compares the label the purge recorded
//   (in its detail) with the caller's clearance, and answers NotFound to a caller who could not have seen them
// $tenant  tenant id
// $id      a purged fact, source, entity or summary id
// returns: purged_at, reason, detail (JSON text: kind, forgotten_at, forgotten_by, forgotten_on_behalf_of, with,
//          sensitivity); no row when never purged
MATCH (a:AuditEvent {tenant: $tenant, subject_id: $id})
WHERE a.action = 'purge'
RETURN a.at AS purged_at, a.reason AS reason, a.detail AS detail
ORDER BY a.seq DESC
LIMIT 1
