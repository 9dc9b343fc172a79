// Every tenant's ledger head as its commit clock records it, with the number of its ledger events, for a backup's
// manifest and for the restore's check against it.
// clearance: not applied: a backup covers the whole database; it answers positions, hashes and counts only
// returns: tenant, ledger_seq (int or null), ledger_head (hash text or null), events
MATCH (c:Clock)
CALL (c) {
  MATCH (a:AuditEvent {tenant: c.tenant})
  RETURN count(a) AS events
}
RETURN c.tenant AS tenant, c.ledger_seq AS ledger_seq, c.ledger_head AS ledger_head, events
ORDER BY tenant
