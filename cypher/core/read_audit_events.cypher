// Read a tenant's chained ledger events in chain order, filtered, after a position (the cursor), at most $limit.
// clearance: not applied: the ledger names acts on every label with free-text reasons, so it is read whole and only
//   by a caller cleared for all (services/ledger/audit.py refuses any other before this runs)
// $tenant     tenant id
// $operation  operation name to keep, or null for all
// $id         an id the event must name (subject or any listed id), or null
// $actor      actor to keep, or null
// $from_time  keep events at or after this instant, or null
// $to_time    keep events before this instant, or null
// $after      keep events whose seq is greater than this (0 from the start)
// $limit      the most events to return
// returns: one row per event: event_id, seq, at, action, subject_id, ids, actor, on_behalf_of, reason, detail, prev_hash, hash,
//          reason_commit, detail_commit, on_behalf_of_commit
MATCH (a:AuditEvent {tenant: $tenant})
WHERE a.seq > $after
  AND ($operation IS NULL OR a.action = $operation)
  AND ($id IS NULL OR a.subject_id = $id OR $id IN coalesce(a.ids, []))
  AND ($actor IS NULL OR a.actor = $actor)
  AND ($from_time IS NULL OR a.at >= $from_time)
  AND ($to_time IS NULL OR a.at < $to_time)
RETURN a.event_id AS event_id, a.seq AS seq, a.at AS at, a.action AS action, a.subject_id AS subject_id,
       a.ids AS ids, a.actor AS actor, a.on_behalf_of AS on_behalf_of, a.reason AS reason, a.detail AS detail, a.prev_hash AS prev_hash,
       a.hash AS hash, a.reason_commit AS reason_commit, a.detail_commit AS detail_commit,
       a.on_behalf_of_commit AS on_behalf_of_commit
ORDER BY a.seq, a.event_id
LIMIT $limit
