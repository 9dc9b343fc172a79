// Store the known time assigned to the current write.
// $tenant  tenant id
// $known   the new known time
// returns: last
MATCH (c:Clock {tenant: $tenant})
SET c.last = $known
RETURN c.last AS last
