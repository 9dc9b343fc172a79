// Close a tenant's search partition, last step: its draining slot is free for the next tenant that grows (no node
// carries its label any more).
// $n  the slot's number
// returns: freed
MATCH (s:SearchSlot {n: $n})
REMOVE s.draining
RETURN s.n AS freed
