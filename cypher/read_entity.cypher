// Find one entity by normalised name or alias (following a merge) and every id merged into it.
// $tenant  tenant id
// $norm    normalised name
// returns: entity_id, name, kind, aliases, ids
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: $norm})
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: $norm})-[:ALIAS_OF]->(aliased:Entity)
WITH coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
OPTIONAL MATCH (e)-[m:MERGED_INTO]->(keep:Entity) WHERE m.known_to IS NULL
WITH coalesce(keep, e) AS c
OPTIONAL MATCH (other:Entity)-[m2:MERGED_INTO]->(c) WHERE m2.known_to IS NULL
RETURN c.entity_id AS entity_id, c.name AS name, c.kind AS kind, c.aliases AS aliases,
       [c.entity_id] + collect(other.entity_id) AS ids
