// The stored probe of a forgotten id (held until purge), if any.
// $tenant     tenant id
// $target_id  the forgotten id (fact, source, entity, summary, or the tenant for a tenant-wide job)
// returns: probe
MATCH (p:ForgetProbe {tenant: $tenant, target_id: $target_id})
RETURN p {.*} AS probe
