// Put the tenant's existing fact versions under its partition label, in batches of their own transactions.
// $tenant  tenant id
// $label   the partition's label
// returns: labelled (how many versions carry the label now)
MATCH (f:Fact) WHERE f.tenant = $tenant
CALL (f) { SET f:$($label) } IN TRANSACTIONS OF 10000 ROWS
RETURN count(f) AS labelled
