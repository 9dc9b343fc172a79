// Count the nodes of the database by label (a node with two labels counts under each), for a backup's manifest
// and for the restore's check against it; a node without a label counts under the empty label.
// returns: label, nodes
MATCH (n)
UNWIND CASE WHEN size(labels(n)) = 0 THEN [''] ELSE labels(n) END AS label
RETURN label, count(*) AS nodes
ORDER BY label
