// Read the head of a tenant's ledger chain as its clock records it (written by finish_write).
// $tenant  tenant id
// returns: ledger_seq (int or null), ledger_head (hash text or null)
MATCH (c:Clock {tenant: $tenant})
RETURN c.ledger_seq AS ledger_seq, c.ledger_head AS ledger_head
