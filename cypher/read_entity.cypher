// Find one entity by normalised name or alias (following the merges believed at a known time) and every id
// merged into it then: the same known time always resolves a name the same way, whatever is merged later.
// $tenant    tenant id
// $norm      normalised name
// $known_at  known-time point (ISO 8601 text with offset; far future = believed now)
// returns: entity_id, name, kind, aliases (display data, as believed now), ids
WITH datetime($known_at) AS known_at
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: $norm})
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: $norm})-[:ALIAS_OF]->(aliased:Entity)
WITH known_at, coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
OPTIONAL MATCH (e)-[m:MERGED_INTO]->(keep:Entity)
  WHERE m.known_from <= known_at AND (m.known_to IS NULL OR m.known_to > known_at)
WITH known_at, coalesce(keep, e) AS c
OPTIONAL MATCH (other:Entity)-[m2:MERGED_INTO]->(c)
  WHERE m2.known_from <= known_at AND (m2.known_to IS NULL OR m2.known_to > known_at)
RETURN c.entity_id AS entity_id, c.name AS name, c.kind AS kind, c.aliases AS aliases,
       [c.entity_id] + collect(other.entity_id) AS ids
