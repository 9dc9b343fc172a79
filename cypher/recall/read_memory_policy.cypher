// Read the tenant's memory policy (the episodic TTL).
// $tenant  tenant id
// returns: episodic_ttl_days (null when none is set)
MATCH (p:MemoryPolicy {tenant: $tenant})
RETURN p.episodic_ttl_days AS episodic_ttl_days
