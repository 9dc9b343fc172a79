// Set the tenant's memory policy: the episodic TTL in days (0 turns roll-off off).
// $tenant             tenant id
// $episodic_ttl_days  days an episodic memory lives before it rolls off (forgetting)
// $known              known time of the write
// returns: episodic_ttl_days
MERGE (p:MemoryPolicy {tenant: $tenant})
SET p.episodic_ttl_days = $episodic_ttl_days, p.known_from = $known
RETURN p.episodic_ttl_days AS episodic_ttl_days
