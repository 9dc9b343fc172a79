// Mark the commit clock of every tenant that already holds crypto-sealed content (fact versions and sources carry
// the id of the key that sealed them), so a process whose crypto mode is off refuses those tenants even when its
// key directory is not the one that sealed them. Writes mark new tenants themselves (tick_clock).
MATCH (f:Fact) WHERE f.crypto_key IS NOT NULL
WITH DISTINCT f.tenant AS tenant
MERGE (c:Clock {tenant: tenant})
SET c.sealed = true;
MATCH (s:Source) WHERE s.crypto_key IS NOT NULL
WITH DISTINCT s.tenant AS tenant
MERGE (c:Clock {tenant: tenant})
SET c.sealed = true;
