// The tenant's search partition, if it has one: its label, its vector index, whether the index is ready.
// $tenant  tenant id
// $kind    what the caller wants: 'index' (the ready index name) or 'size' (the tenant's fact version count)
// returns: label, index, ready, versions (fact versions of the tenant when kind = 'size', else null)
OPTIONAL MATCH (p:SearchPartition {tenant: $tenant})
RETURN p.label AS label, p.index AS index, coalesce(p.ready, false) AS ready,
       CASE WHEN $kind = 'size' THEN COUNT { MATCH (f:Fact) WHERE f.tenant = $tenant } END AS versions
