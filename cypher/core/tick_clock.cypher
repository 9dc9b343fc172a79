// Lock the tenant's commit clock and return the last known time it handed out, and the ledger chain's head.
// Every write transaction calls this first, so writes of one tenant commit one after another (and their ledger
// events chain one after another: the head is read after the lock is taken). A write by a process that seals
// content marks the clock `sealed`, so a process whose crypto mode is off refuses the tenant from then on, and records
// the id of its key store the first time, so a process with another key store refuses it too.
// $tenant     tenant id
// $sealing    whether this write's process seals content (CREDO_CRYPTO=on)
// $key_store  the id of this process's key store (null without one)
// returns: last (datetime or null: the last known time handed out, or a later point a reader settled: await_clock), ledger_seq (int or null), ledger_head (hash text or null), sealed (boolean),
//          key_store (the id of the key store that sealed the tenant, or null)
MERGE (c:Clock {tenant: $tenant})
SET c.locks = coalesce(c.locks, 0) + 1, c.sealed = CASE WHEN $sealing THEN true ELSE c.sealed END,
    c.key_store = CASE WHEN $sealing AND c.key_store IS NULL THEN $key_store ELSE c.key_store END
RETURN CASE WHEN c.settled > c.last OR (c.last IS NULL AND c.settled IS NOT NULL) THEN c.settled ELSE c.last END
       AS last, c.ledger_seq AS ledger_seq, c.ledger_head AS ledger_head, coalesce(c.sealed, false) AS sealed,
       c.key_store AS key_store
