// Find named entities by normalised name or alias and follow merges, without writing (so without the locking
// index seeks a query that may MERGE takes): the first step of resolve_entities; absent names give no row.
// It serves writes only, so it follows the merges believed now (as-of reads resolve through read_entity).
// $tenant  tenant id
// $norms   normalised names
// returns: norm, entity_id, name, ids (the canonical id and every id merged into it)
UNWIND $norms AS norm
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: norm})-[:ALIAS_OF]->(aliased:Entity)
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: norm})
WITH norm, coalesce(aliased, direct) AS e
WHERE e IS NOT NULL
OPTIONAL MATCH (e)-[m:MERGED_INTO]->(keep:Entity) WHERE m.known_to IS NULL
WITH norm, coalesce(keep, e) AS canonical
OPTIONAL MATCH (merged:Entity)-[m2:MERGED_INTO]->(canonical) WHERE m2.known_to IS NULL
WITH norm, canonical, collect(merged.entity_id) AS merged_ids
RETURN norm, canonical.entity_id AS entity_id, canonical.name AS name, [canonical.entity_id] + merged_ids AS ids
