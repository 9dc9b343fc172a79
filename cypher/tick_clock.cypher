// Lock the tenant's commit clock and return the last known time it handed out, and the ledger chain's head.
// Every write transaction calls this first, so writes of one tenant commit one after another (and their ledger
// events chain one after another: the head is read after the lock is taken).
// $tenant  tenant id
// returns: last (datetime or null), ledger_seq (int or null), ledger_head (hash text or null)
MERGE (c:Clock {tenant: $tenant})
SET c.locks = coalesce(c.locks, 0) + 1
RETURN c.last AS last, c.ledger_seq AS ledger_seq, c.ledger_head AS ledger_head
