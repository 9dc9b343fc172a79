// Mark a tenant's search partition ready (its vector and full-text indexes are online): search queries them from now on.
// $tenant      tenant id
// $text_index  the partition's full-text index name (online)
// returns: ready
MATCH (p:SearchPartition {tenant: $tenant})
SET p.ready = true, p.text_index = $text_index
RETURN p.ready AS ready
