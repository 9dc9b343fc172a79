// Record a read receipt: one :ReadReceipt node for the task (a :Task node per tenant and label, created on first
// use), a SERVED edge to each served version (with its rank and the package part it was served in), and the
// versions' usage count, in the read's write transaction.
// $tenant        tenant id
// $known         known time of the receipt
// $receipt_id    the receipt's id
// $task          the task label
// $operation     the read operation that served (context, search, ...)
// $question      the question or entity read, or null
// $clearance     the asker's clearance ('public' ... 'secret', or 'all'): who may be shown the question
// $valid_at      the read's valid-time point, or null
// $known_at      the read's known-time point, or null (believed now)
// $rows          list of {version_id, rank, part}
// returns: served (count of versions linked; versions of other tenants are never linked)
MERGE (t:Task {tenant: $tenant, name: $task})
  ON CREATE SET t.known_from = $known
CREATE (r:ReadReceipt {tenant: $tenant, receipt_id: $receipt_id, task: $task, operation: $operation,
                       query: $question, clearance: $clearance, valid_at: $valid_at, known_at: $known_at,
                       at: $known})
CREATE (r)-[:FOR_TASK {known_from: $known}]->(t)
WITH r
CALL (r) {
  UNWIND $rows AS row
  MATCH (f:Fact {version_id: row.version_id})
  WHERE f.tenant = $tenant
  CREATE (r)-[:SERVED {rank: row.rank, part: row.part, known_from: $known}]->(f)
  SET f.served_count = coalesce(f.served_count, 0) + 1, f.last_served_at = $known
  RETURN count(f) AS served
}
RETURN served
