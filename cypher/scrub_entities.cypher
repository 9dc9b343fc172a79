// Forget entities: remove their names and aliases (and the :Alias nodes pointing at them), mark the tombstone.
// $tenant      tenant id
// $entity_ids  entity ids
// $known       known time of the forgetting
// $by          who forgot
// $reason      why
// returns: scrubbed
MATCH (e:Entity)
WHERE e.entity_id IN $entity_ids AND e.tenant = $tenant
CALL (e) {
  MATCH (a:Alias)-[:ALIAS_OF]->(e)
  DETACH DELETE a
}
SET e.name = '[forgotten]', e.norm = 'forgotten:' + e.entity_id, e.aliases = [], e.aliases_text = '',
    e.forgotten_at = $known, e.forgotten_by = $by, e.forgotten_reason = $reason
RETURN count(e) AS scrubbed
