// Open a tenant's search partition on a free slot (not ready yet: from now on every new version of the tenant gets
// the slot's label), or return the partition the tenant has. A partition opened before slots whose build never
// finished (not ready, no slot) is moved onto a free slot. Claims run one at a time: each first writes the pool
// node, so the next waits for its commit and then reads which slots are free; a draining slot (being released) is
// not free yet.
// $tenant  tenant id
// returns: label, index, text_index (the slot's full-text index; for a partition opened before slots, the full-text
//          index it has, null before it had one), ready, free (slots still free after this claim); no row when the
//          tenant needs a slot and none is free
MATCH (pool:SearchSlotPool {id: 'pool'})
SET pool.claims = coalesce(pool.claims, 0) + 1
WITH pool
OPTIONAL MATCH (held:SearchPartition {tenant: $tenant})
WITH held, held IS NULL OR (NOT coalesce(held.ready, false) AND NOT EXISTS { (held)-[:USES]->() }) AS needs
CALL (held, needs) {
  WITH held WHERE needs
  MATCH (s:SearchSlot) WHERE s.draining IS NULL AND NOT EXISTS { (s)<-[:USES]-(:SearchPartition) }
  WITH s ORDER BY s.n LIMIT 1
  MERGE (p:SearchPartition {tenant: $tenant})
  SET p.label = s.label, p.index = s.index, p.ready = false
  MERGE (p)-[:USES]->(s)
  RETURN p
  UNION
  WITH held WHERE NOT needs
  RETURN held AS p
}
OPTIONAL MATCH (p)-[:USES]->(slot:SearchSlot)
RETURN p.label AS label, p.index AS index, coalesce(slot.text_index, p.text_index) AS text_index, p.ready AS ready,
       COUNT { MATCH (s:SearchSlot) WHERE s.draining IS NULL AND NOT EXISTS { (s)<-[:USES]-(:SearchPartition) } }
       AS free
