// Wait for every write of the tenant still committing: take its clock's lock (held by a write from the moment it
// takes its known time until it commits) and change nothing. A tenant with no clock yet gets an empty one (the
// unique constraint makes a first write still creating it wait for this, or this for it).
// $tenant  tenant id
// returns: last (datetime or null)
MERGE (c:Clock {tenant: $tenant})
SET c.locks = coalesce(c.locks, 0)
RETURN c.last AS last
