// Open a tenant's search partition on a free slot (not ready yet: from now on every new version of the tenant gets
// the slot's label), or return the partition the tenant has. Claims run one at a time: each first writes the pool
// node, so the next waits for its commit and then reads which slots are free.
// $tenant  tenant id
// returns: label, index, text_index (the slot's full-text index; for a partition opened before slots, the full-text
//          index it has, null before it had one), ready,
//          free (slots still free after this claim); no row when the tenant has no partition and no slot is free
MATCH (pool:SearchSlotPool {id: 'pool'})
SET pool.claims = coalesce(pool.claims, 0) + 1
WITH pool
OPTIONAL MATCH (held:SearchPartition {tenant: $tenant})
CALL (held) {
  WITH held WHERE held IS NULL
  MATCH (s:SearchSlot) WHERE NOT EXISTS { (s)<-[:USES]-(:SearchPartition) }
  WITH s ORDER BY s.n LIMIT 1
  CREATE (p:SearchPartition {tenant: $tenant, label: s.label, index: s.index, ready: false})-[:USES]->(s)
  RETURN p
  UNION
  WITH held WHERE held IS NOT NULL
  RETURN held AS p
}
OPTIONAL MATCH (p)-[:USES]->(slot:SearchSlot)
RETURN p.label AS label, p.index AS index, coalesce(slot.text_index, p.text_index) AS text_index, p.ready AS ready,
       COUNT { MATCH (s:SearchSlot) WHERE NOT EXISTS { (s)<-[:USES]-(:SearchPartition) } } AS free
