// How many of a tenant's fact versions there are and how many carry its search partition's label (a check that
// every version joined the partition).
// clearance: not applied: search partition bookkeeping (labels), no content
// $tenant  tenant id
// returns: versions, labelled
MATCH (p:SearchPartition {tenant: $tenant})
MATCH (f:Fact) WHERE f.tenant = $tenant
RETURN count(f) AS versions, count(CASE WHEN p.label IN labels(f) THEN 1 END) AS labelled
