// Find each named entity by normalised name or alias, creating the missing ones; follow merge chains to their end.
// $tenant  tenant id
// $known   known time of the write (creation time of new entities)
// $rows    list of {norm, name, new_id, kind}
// returns: norm, entity_id, name, ids (the canonical id and every id merged into it); entity_id = new_id when
//          this call created the entity
UNWIND $rows AS row
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: row.norm})-[:ALIAS_OF]->(aliased:Entity)
// a plain indexed read first; only the missing names MERGE (MERGE locks even when the entity exists)
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: row.norm}) USING INDEX direct:Entity(tenant, norm)
WITH row, coalesce(aliased, direct) AS found
CALL (row, found) {
  WITH row, found WHERE found IS NULL
  MERGE (e:Entity {tenant: $tenant, norm: row.norm})
  ON CREATE SET e.entity_id = row.new_id, e.name = row.name, e.kind = row.kind, e.aliases = [],
                e.aliases_text = '', e.created_at = $known
  RETURN e
  UNION
  WITH row, found WHERE found IS NOT NULL
  RETURN found AS e
}
// merges chain (Kay -> K. -> Katherine): follow every believed MERGED_INTO hop to the end of the chain
OPTIONAL MATCH (e)-[ms:MERGED_INTO*1..]->(keep:Entity)
  WHERE all(m IN ms WHERE m.known_to IS NULL)
    AND NOT EXISTS { MATCH (keep)-[n:MERGED_INTO]->() WHERE n.known_to IS NULL }
WITH row, coalesce(keep, e) AS canonical
OPTIONAL MATCH (merged:Entity)-[ms2:MERGED_INTO*1..]->(canonical) WHERE all(m IN ms2 WHERE m.known_to IS NULL)
WITH row, canonical, collect(DISTINCT merged.entity_id) AS merged_ids
RETURN row.norm AS norm, canonical.entity_id AS entity_id, canonical.name AS name,
       [canonical.entity_id] + merged_ids AS ids
