// The partition slots: the highest slot number made so far and how many slots no tenant has taken (a draining
// slot, being released, is not free yet).
// returns: top (-1 when none was made), free
OPTIONAL MATCH (s:SearchSlot)
RETURN coalesce(max(s.n), -1) AS top,
       COUNT { MATCH (f:SearchSlot) WHERE f.draining IS NULL AND NOT EXISTS { (f)<-[:USES]-(:SearchPartition) } }
       AS free
