// Forget entities: remove their names and aliases (and the :Alias nodes pointing at them), mark the tombstone (an
// entity forgotten before keeps its first one).
// $tenant      tenant id
// $entity_ids  entity ids
// $known       known time of the forgetting
// $by          who forgot (the acting key or process user)
// $behalf      who the caller said it acted for, or null
// $reason      why
// returns: scrubbed
MATCH (e:Entity)
WHERE e.entity_id IN $entity_ids AND e.tenant = $tenant
CALL (e) {
  MATCH (a:Alias)-[:ALIAS_OF]->(e)
  DETACH DELETE a
}
SET e.name = '[forgotten]', e.norm = 'forgotten:' + e.entity_id, e.aliases = [], e.aliases_text = '',
    e.forgotten_by = CASE WHEN e.forgotten_at IS NULL THEN $by ELSE e.forgotten_by END,
    e.forgotten_on_behalf_of = CASE WHEN e.forgotten_at IS NULL THEN $behalf ELSE e.forgotten_on_behalf_of END,
    e.forgotten_reason = CASE WHEN e.forgotten_at IS NULL THEN $reason ELSE e.forgotten_reason END,
    e.forgotten_at = coalesce(e.forgotten_at, $known)
RETURN count(e) AS scrubbed
