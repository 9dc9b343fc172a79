// One round trip for a search's two text look-ups besides facts: the tenant's canonical entities (believed now)
// whose name or aliases match, each with every id merged into it (so the graph path reaches facts recorded under a
// merged name), and only those the caller may see a fact about; and the tenant's summary versions whose topic or
// text match, filtered before they are ranked by state, known time and clearance (a summary is as sensitive as the
// most sensitive input it was derived from: cypher/fragments/visible_summary.cypher).
// $entity_lucene   Lucene query for the entity_text index (tenant clause included), or '' (no entity look-up);
//                  as in search_facts.cypher, every parameter keeps one type (one plan) whatever the search asks
// $summary_lucene  Lucene query for the summary_text index (tenant clause included), or '' (no summaries)
// $tenant          tenant id
// $known_at        known-time point for summaries (ISO 8601 text with offset; far future = believed now)
// $states          summary states to serve
// $levels          sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// $pool            how many of each to return (twice as many entity candidates are read: merged-away ones drop out)
// returns: kind ('entity' or 'summary'), score, entity (entity_id, name, kind, aliases, norm, ids; or null),
//          summary (map projection; or null), trace (the summary's DERIVED_FROM edges), best first within each kind
CALL () {
  WITH 1 AS go WHERE rtrim($entity_lucene) <> ''
  CALL db.index.fulltext.queryNodes('entity_text', $entity_lucene, {limit: $pool * 2}) YIELD node AS e, score
  WITH e, score
  WHERE e.tenant = $tenant
    AND NOT EXISTS { MATCH (e)-[m:MERGED_INTO]->() WHERE m.known_to IS NULL }
  WITH e, score, [e.entity_id] + [(o:Entity)-[ms:MERGED_INTO*1..]->(e) WHERE all(m IN ms WHERE m.known_to IS NULL)
                                  | o.entity_id] AS ids
  WHERE @visible_entity(ids, $levels)
  WITH e, score, ids ORDER BY score DESC, e.entity_id LIMIT $pool
  RETURN 'entity' AS kind, score, e {.entity_id, .name, .kind, .aliases, .norm, ids: ids} AS entity,
         null AS summary, null AS trace
  UNION ALL
  WITH 1 AS go WHERE rtrim($summary_lucene) <> ''
  WITH datetime($known_at) AS known_at
  CALL db.index.fulltext.queryNodes('summary_text', $summary_lucene) YIELD node AS s, score
  WITH s, score, known_at
  WHERE s.tenant = $tenant AND @state_at(s, known_at) IN $states
    AND @believed_at(s, known_at)
    AND @visible_summary(s, $levels)
  WITH s, score, known_at ORDER BY score DESC, s.version_id LIMIT $pool
  RETURN 'summary' AS kind, score, null AS entity, s {.*, flag: @flag_at(s, known_at)} AS summary,
         [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace
}
RETURN kind, score, entity, summary, trace
