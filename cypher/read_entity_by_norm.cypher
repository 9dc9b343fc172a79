// The entity node that owns a normalised name, without following merges.
// $tenant  tenant id
// $norm    normalised name
// returns: entity_id, name, kind, aliases
MATCH (e:Entity {tenant: $tenant, norm: $norm})
RETURN e.entity_id AS entity_id, e.name AS name, e.kind AS kind, e.aliases AS aliases
