// Close a tenant's search partition, first step: the partition node goes (a write of the tenant in flight waits for
// this, a later one gets no partition label and joins the global full-text index) and its slot, if it has one, is
// held as draining until unlabel_search_partition.cypher has taken its label off the tenant's versions
// (free_search_slot.cypher then frees it).
// $tenant  tenant id
// returns: label, index, slot (the draining slot's number; null for a partition opened before slots)
MATCH (p:SearchPartition {tenant: $tenant})
OPTIONAL MATCH (p)-[:USES]->(s:SearchSlot)
SET s.draining = true
WITH p, p.label AS label, p.index AS index, s.n AS slot
DETACH DELETE p
RETURN label, index, slot
