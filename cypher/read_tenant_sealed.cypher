// Whether a tenant holds crypto-sealed content: its commit clock is marked by the first write of a sealing process
// (tick_clock), and migration 0014 marked the tenants sealed before the mark existed.
// $tenant  tenant id
// returns: (plain values only) sealed (true, or no row / false)
MATCH (c:Clock {tenant: $tenant})
RETURN coalesce(c.sealed, false) AS sealed
