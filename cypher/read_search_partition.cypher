// The tenant's search partition, if it has one: its label, its vector index, whether the index is ready, and its
// full-text index once that is online (null for a partition made before partitions had one).
// clearance: not applied: search partition bookkeeping (index names, sizes), no content
// $tenant  tenant id
// $kind    what the caller wants: 'index' (the ready index names) or 'size' (the tenant's fact version count)
// returns: label, index, ready, text_index, versions (fact versions of the tenant when kind = 'size', else null)
OPTIONAL MATCH (p:SearchPartition {tenant: $tenant})
RETURN p.label AS label, p.index AS index, coalesce(p.ready, false) AS ready, p.text_index AS text_index,
       CASE WHEN $kind = 'size' THEN COUNT { MATCH (f:Fact) WHERE f.tenant = $tenant } END AS versions
