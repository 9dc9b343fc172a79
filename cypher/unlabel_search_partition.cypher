// Take a partition's label off every node that carries it, in batches of their own transactions (a slot is freed
// only with its indexes empty).
// $label  the partition's label
// returns: unlabelled
MATCH (n:$($label))
CALL (n) { REMOVE n:$($label) } IN TRANSACTIONS OF 10000 ROWS
RETURN count(n) AS unlabelled
