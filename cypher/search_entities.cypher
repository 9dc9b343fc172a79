// Entities of one tenant whose name or aliases match a Lucene query, canonical ones only (believed now), each with
// every id merged into it (so the graph path reaches facts recorded under a merged name).
// $lucene  Lucene query for the entity_text index (tenant clause included)
// $tenant  tenant id
// $pool    how many entities to return
// returns: entity_id, name, kind, aliases, ids, norm, score (best first)
CALL db.index.fulltext.queryNodes('entity_text', $lucene) YIELD node AS e, score
WITH e, score
WHERE e.tenant = $tenant
  AND NOT EXISTS { MATCH (e)-[m:MERGED_INTO]->() WHERE m.known_to IS NULL }
WITH e, score ORDER BY score DESC, e.entity_id LIMIT $pool
RETURN e.entity_id AS entity_id, e.name AS name, e.kind AS kind, e.aliases AS aliases, e.norm AS norm, score,
       [e.entity_id] + [(o:Entity)-[ms:MERGED_INTO*1..]->(e) WHERE all(m IN ms WHERE m.known_to IS NULL)
                        | o.entity_id] AS ids
