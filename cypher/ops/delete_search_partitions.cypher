// Migration 0018's data step: delete the nodes that recorded per-tenant search partitions and their slots.
// returns: deleted
MATCH (n) WHERE n:SearchPartition OR n:SearchSlot OR n:SearchSlotPool
DETACH DELETE n
RETURN count(*) AS deleted
