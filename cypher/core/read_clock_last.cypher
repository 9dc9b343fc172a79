// The last known time a tenant's committed writes hold (what its clock handed out and committed).
// $tenant  tenant id
// returns: last (datetime or null)
MATCH (c:Clock {tenant: $tenant})
RETURN c.last AS last
