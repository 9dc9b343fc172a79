// Close a tenant's search partition once no node carries its label any more (unlabel_search_partition.cypher):
// its slot, if it has one, is free for the next tenant that grows.
// $tenant  tenant id
// returns: label, index, slot (the freed slot's number; null for a partition opened before slots)
MATCH (p:SearchPartition {tenant: $tenant})
OPTIONAL MATCH (p)-[:USES]->(s:SearchSlot)
WITH p, p.label AS label, p.index AS index, s.n AS slot
DETACH DELETE p
RETURN label, index, slot
