// A tenant whose own full-text index is ready leaves the global `fact_text` index: its versions lose :FactText, in
// batches of their own transactions (search and forget verification read the tenant's own index from now on).
// $tenant  tenant id
// returns: unlabelled
MATCH (f:FactText) WHERE f.tenant = $tenant
CALL (f) { REMOVE f:FactText } IN TRANSACTIONS OF 10000 ROWS
RETURN count(f) AS unlabelled
