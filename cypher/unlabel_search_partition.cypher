// Close a tenant's search partition, middle step: its versions trade the partition's label for :FactText (back in
// the global full-text index, as a small tenant's versions are), in batches of their own transactions; idempotent.
// $tenant  tenant id
// $label   the partition's label
// returns: unlabelled
MATCH (f:Fact) WHERE f.tenant = $tenant
CALL (f) { REMOVE f:$($label) SET f:FactText } IN TRANSACTIONS OF 10000 ROWS
RETURN count(f) AS unlabelled
