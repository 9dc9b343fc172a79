// Find named entities by normalised name or alias and follow merge chains, without writing (so without the locking
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
// merges chain (Kay -> K. -> Katherine): follow every believed MERGED_INTO hop to the end of the chain
OPTIONAL MATCH (e)-[ms:MERGED_INTO*1..]->(keep:Entity)
  WHERE all(m IN ms WHERE m.known_to IS NULL)
    AND NOT EXISTS { MATCH (keep)-[n:MERGED_INTO]->() WHERE n.known_to IS NULL }
WITH norm, coalesce(keep, e) AS canonical
OPTIONAL MATCH (merged:Entity)-[ms2:MERGED_INTO*1..]->(canonical) WHERE all(m IN ms2 WHERE m.known_to IS NULL)
WITH norm, canonical, collect(DISTINCT merged.entity_id) AS merged_ids
RETURN norm, canonical.entity_id AS entity_id, canonical.name AS name, [canonical.entity_id] + merged_ids AS ids
