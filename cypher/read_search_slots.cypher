// The partition slots: the highest slot number made so far and how many slots no tenant has taken.
// returns: top (-1 when none was made), free
OPTIONAL MATCH (s:SearchSlot)
RETURN coalesce(max(s.n), -1) AS top,
       COUNT { MATCH (f:SearchSlot) WHERE NOT EXISTS { (f)<-[:USES]-(:SearchPartition) } } AS free
