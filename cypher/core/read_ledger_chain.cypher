// Read one batch of a tenant's ledger for verification: every event (chained or not, in any shape) with a seq
// greater than $after, or, with $unchained, every event that has no seq; ordered by seq then event id.
// clearance: not applied: verify_ledger re-hashes every event; it answers counts, positions and event ids only
// $tenant     tenant id
// $after      return chained events whose seq is greater than this
// $limit      the most events to return
// $unchained  true: return the events without a seq instead
// returns: one row per event: event_id, seq, at, action, subject_id, ids, actor, on_behalf_of, reason, detail, prev_hash, hash,
//          reason_commit, detail_commit, on_behalf_of_commit
MATCH (a:AuditEvent {tenant: $tenant})
WHERE CASE WHEN $unchained THEN a.seq IS NULL ELSE a.seq > $after END
RETURN a.event_id AS event_id, a.seq AS seq, a.at AS at, a.action AS action, a.subject_id AS subject_id,
       a.ids AS ids, a.actor AS actor, a.on_behalf_of AS on_behalf_of, a.reason AS reason, a.detail AS detail, a.prev_hash AS prev_hash,
       a.hash AS hash, a.reason_commit AS reason_commit, a.detail_commit AS detail_commit,
       a.on_behalf_of_commit AS on_behalf_of_commit
ORDER BY a.seq, a.event_id
LIMIT $limit
