// Open a tenant's search partition (not ready yet): from now on every new version of the tenant gets its label.
// $tenant  tenant id
// $label   the partition's label (derived from the tenant id's digest, never from input text)
// $index   the partition's vector index name
// returns: label, index, ready
MERGE (p:SearchPartition {tenant: $tenant})
ON CREATE SET p.label = $label, p.index = $index, p.ready = false
RETURN p.label AS label, p.index AS index, p.ready AS ready
