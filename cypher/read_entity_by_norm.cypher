// The entity node that owns a normalised name, without following merges.
// $tenant  tenant id
// $norm    normalised name
// returns: entity_id, name, kind, aliases
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
MATCH (e:Entity {tenant: $tenant, norm: $norm}) USING INDEX e:Entity(tenant, norm)
RETURN e.entity_id AS entity_id, e.name AS name, e.kind AS kind, e.aliases AS aliases
