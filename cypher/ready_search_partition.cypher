// Mark a tenant's search partition ready (its vector index is online): search queries it from now on.
// $tenant  tenant id
// returns: ready
MATCH (p:SearchPartition {tenant: $tenant})
SET p.ready = true
RETURN p.ready AS ready
