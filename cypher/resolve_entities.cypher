// Find each named entity by normalised name or alias, creating the missing ones; follow merges.
// $tenant  tenant id
// $known   known time of the write (creation time of new entities)
// $rows    list of {norm, name, new_id, kind}
// returns: norm, entity_id, name, ids (the canonical id and every id merged into it)
UNWIND $rows AS row
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: row.norm})-[:ALIAS_OF]->(aliased:Entity)
CALL (row, aliased) {
  WITH row, aliased WHERE aliased IS NULL
  MERGE (e:Entity {tenant: $tenant, norm: row.norm})
  ON CREATE SET e.entity_id = row.new_id, e.name = row.name, e.kind = row.kind, e.aliases = [],
                e.aliases_text = '', e.created_at = $known
  RETURN e
  UNION
  WITH row, aliased WHERE aliased IS NOT NULL
  RETURN aliased AS e
}
OPTIONAL MATCH (e)-[m:MERGED_INTO]->(keep:Entity) WHERE m.known_to IS NULL
WITH row, coalesce(keep, e) AS canonical
OPTIONAL MATCH (merged:Entity)-[m2:MERGED_INTO]->(canonical) WHERE m2.known_to IS NULL
WITH row, canonical, collect(merged.entity_id) AS merged_ids
RETURN row.norm AS norm, canonical.entity_id AS entity_id, canonical.name AS name,
       [canonical.entity_id] + merged_ids AS ids
