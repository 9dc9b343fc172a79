// Settle a past known point of a tenant: take its clock's lock (held by a write from the moment it takes its known
// time until it commits), so every write still committing finishes first, and record the point, so no later write
// takes a known time at or before it (tick_clock hands out times after `settled`), whatever its server's clock says.
// A tenant with no clock yet gets one (the unique constraint makes a first write still creating it wait for this).
// $tenant  tenant id
// $point   the known point being read (datetime)
// returns: last (datetime or null)
MERGE (c:Clock {tenant: $tenant})
SET c.settled = CASE WHEN c.settled IS NULL OR c.settled < $point THEN $point ELSE c.settled END
RETURN c.last AS last
