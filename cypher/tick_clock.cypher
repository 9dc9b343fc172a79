// Lock the tenant's commit clock and return the last known time it handed out.
// Every write transaction calls this first, so writes of one tenant commit one after another.
// $tenant  tenant id
// returns: last (datetime or null)
MERGE (c:Clock {tenant: $tenant})
SET c.locks = coalesce(c.locks, 0) + 1
RETURN c.last AS last
