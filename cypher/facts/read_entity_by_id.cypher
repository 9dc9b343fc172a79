// One entity by id, unless the caller may see no fact about it (or about an id merged into it: believed now).
// $entity_id  entity id
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: entity_id, name, kind, aliases, tenant
MATCH (e:Entity {entity_id: $entity_id})
WITH e, [e.entity_id] + [(o:Entity)-[ms:MERGED_INTO*1..]->(e) WHERE all(m IN ms WHERE m.known_to IS NULL)
                         | o.entity_id] AS ids
WHERE @visible_entity(ids, $levels)
RETURN e.entity_id AS entity_id, e.name AS name, e.kind AS kind, e.aliases AS aliases, e.tenant AS tenant
