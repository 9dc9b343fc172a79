// Migration 0018's data step: take one leftover search label (a partition's or :FactText) off every node carrying
// it, in batches of their own transactions.
// $label  the label (ops/migrate_search.py checked it against its pattern)
// returns: unlabelled
MATCH (f:$($label))
CALL (f) { REMOVE f:$($label) } IN TRANSACTIONS OF 10000 ROWS
RETURN count(f) AS unlabelled
