// The entity node that owns a normalised name, without following merges, unless the caller may see no fact about
// it.
// $tenant  tenant id
// $norm    normalised name
// $levels  sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: entity_id, name, kind, aliases
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
MATCH (e:Entity {tenant: $tenant, norm: $norm}) USING INDEX e:Entity(tenant, norm)
WITH e, [e.entity_id] AS ids
WHERE @visible_entity(ids, $levels)
RETURN e.entity_id AS entity_id, e.name AS name, e.kind AS kind, e.aliases AS aliases
