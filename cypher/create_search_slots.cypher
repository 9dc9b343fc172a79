// Record partition slots whose indexes exist (made by graph/search_partition.py `make_slots`), and the pool node
// claims lock on.
// $slots  list of {n, label, index, text_index}
// returns: slots (how many slots exist now)
MERGE (:SearchSlotPool {id: 'pool'})
WITH 1 AS go
UNWIND $slots AS slot
MERGE (s:SearchSlot {n: slot.n})
ON CREATE SET s.label = slot.label, s.index = slot.index, s.text_index = slot.text_index
WITH count(s) AS recorded
RETURN COUNT { MATCH (:SearchSlot) } AS slots
