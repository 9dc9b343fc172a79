// Find one entity by normalised name or alias (following the chain of merges believed at a known time) and every id
// merged into it then: the same known time always resolves a name the same way, whatever is merged later. An entity
// the caller may see no fact about (its own or a merged id's) is not found, exactly like a name no entity has.
// $tenant    tenant id
// $norm      normalised name
// $known_at  known-time point (ISO 8601 text with offset; far future = believed now)
// $levels    sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: entity_id, name, kind, aliases (display data, as believed now), ids
WITH datetime($known_at) AS known_at
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: $norm}) USING INDEX direct:Entity(tenant, norm)
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: $norm})-[:ALIAS_OF]->(aliased:Entity)
WITH known_at, coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
// merges chain (Kay -> K. -> Katherine): follow every believed MERGED_INTO hop to the end of the chain
@merged_into(e, known_at)
WITH known_at, coalesce(keep, e) AS c
@merged_from(c, known_at)
WITH c, [c.entity_id] + collect(DISTINCT other.entity_id) AS ids
WHERE @visible_entity(ids, $levels)
RETURN c.entity_id AS entity_id, c.name AS name, c.kind AS kind, c.aliases AS aliases, ids
