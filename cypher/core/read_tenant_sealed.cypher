// Whether a tenant holds crypto-sealed content: its commit clock is marked by the first write of a sealing process
// (tick_clock), and migration 0014 marked the tenants sealed before the mark existed; and which key store sealed it
// (recorded by that write; null for a tenant sealed before it was recorded).
// $tenant  tenant id
// returns: (plain values only) sealed (true, or no row / false), key_store (text or null)
MATCH (c:Clock {tenant: $tenant})
RETURN coalesce(c.sealed, false) AS sealed, c.key_store AS key_store
