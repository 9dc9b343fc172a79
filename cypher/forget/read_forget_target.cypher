// What an id names in a tenant (a fact, a fact version, a source, an entity, a summary or a recipe) and whether it is
// forgotten.
// clearance: not applied: what an id names, for forgetting; services/forget/forget.py then answers NotFound for content
//   above the caller's clearance (read_hidden_content)
// $tenant  tenant id
// $id      the id
// returns: kind, fact_id, forgotten, tombstones (list of {at, by, behalf, reason} of the forgetting; empty when not
//          forgotten)
OPTIONAL MATCH (f:Fact) WHERE (f.fact_id = $id OR f.version_id = $id) AND f.tenant = $tenant
WITH collect(f) AS fs
OPTIONAL MATCH (s:Source {source_id: $id}) WHERE s.tenant = $tenant
OPTIONAL MATCH (e:Entity {entity_id: $id}) WHERE e.tenant = $tenant
OPTIONAL MATCH (m:Summary {summary_id: $id}) WHERE m.tenant = $tenant
WITH fs, s, e, collect(m) AS ms
OPTIONAL MATCH (r:Recipe {recipe_id: $id}) WHERE r.tenant = $tenant
WITH fs, s, e, ms, collect(r) AS rs
RETURN CASE WHEN size(fs) > 0 THEN 'fact' WHEN s IS NOT NULL THEN 'source' WHEN e IS NOT NULL THEN 'entity'
            WHEN size(ms) > 0 THEN 'summary' WHEN size(rs) > 0 THEN 'recipe' END AS kind,
       fs[0].fact_id AS fact_id,
       CASE WHEN size(fs) > 0 THEN all(f IN fs WHERE f.forgotten_at IS NOT NULL)
            WHEN s IS NOT NULL THEN s.forgotten_at IS NOT NULL WHEN e IS NOT NULL THEN e.forgotten_at IS NOT NULL
            WHEN size(ms) > 0 THEN any(m IN ms WHERE m.known_to IS NULL AND @state_at(m, null) = 'forgotten')
            ELSE size(rs) > 0 AND all(r IN rs WHERE r.forgotten_at IS NOT NULL) END AS forgotten,
       [t IN [x IN fs WHERE x.forgotten_at IS NOT NULL] + [x IN [s, e] WHERE x.forgotten_at IS NOT NULL]
             + [x IN rs WHERE x.forgotten_at IS NOT NULL]
             | {at: t.forgotten_at, by: t.forgotten_by, behalf: t.forgotten_on_behalf_of, reason: t.forgotten_reason}]
       + [m IN ms WHERE m.content_removed_at IS NOT NULL
             | {at: m.content_removed_at, by: m.content_removed_by, behalf: m.content_removed_on_behalf_of,
                reason: m.content_removed_reason}] AS tombstones
