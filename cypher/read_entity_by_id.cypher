// One entity by id.
// $entity_id  entity id
// returns: entity_id, name, kind, aliases, tenant
MATCH (e:Entity {entity_id: $entity_id})
RETURN e.entity_id AS entity_id, e.name AS name, e.kind AS kind, e.aliases AS aliases, e.tenant AS tenant
