// One round trip for what a search reads beside the query's embedding: the tenant's canonical entities (believed
// now) whose name or aliases match, each with every id merged into it, only those the caller may see a fact about;
// the tenant's summary versions whose topic or text match, filtered by state, known time and clearance; and the
// lexical path of search_facts.cypher (its `fact_text` branch, the same filter, ranks and projection), so the three
// text look-ups cost one query's socket work and decoding on both sides (bench/history/journal.md, seventh round);
// the graph path, which needs the named entities, is asked after (only when the question names one).
// $entity_lucene   Lucene query for the entity_text index (tenant clause included), or '' (no entity look-up);
//                  as in search_facts.cypher, every parameter keeps one type (one plan) whatever the search asks
// $summary_lucene  Lucene query for the summary_text index (tenant clause included), or '' (no summaries)
// $lucene          Lucene query for the fact_text index (tenant clause included), '' with no lexical path
// $cut             how many candidates the fact_text index hands over before filtering (0: no lexical path)
// $tenant          tenant id
// $valid_at        valid-time point for facts (ISO 8601 text with offset)
// $known_at        known-time point (ISO 8601 text with offset; far future = believed now)
// $states          states to serve (facts and summaries)
// $any_kind        whether every memory kind is served ($kinds is then [''])
// $kinds           memory kinds to serve
// $any_scope       whether every scope is served ($scope_key is then '')
// $scope_key       canonical scope text to serve
// $levels          sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// $pool            how many of each to return (twice as many entity candidates are read: merged-away ones drop out)
// $full            how many of the lexical path's best visible candidates carry the full version
// returns: kind ('entity', 'summary' or 'fact'), score, entity (entity_id, name, kind, aliases, norm, ids; or null),
//          summary (map projection; or null), trace (the summary's DERIVED_FROM edges), and for kind 'fact' the
//          columns of search_facts.cypher: raw, rank, fact, found, premised, sourced; best first within each kind
CYPHER 25
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
CALL (valid_at, known_at) {
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
         null AS summary, null AS trace, null AS raw, null AS rank, null AS fact, null AS found, null AS premised,
         null AS sourced
  UNION ALL
  WITH 1 AS go WHERE rtrim($summary_lucene) <> ''
  CALL db.index.fulltext.queryNodes('summary_text', $summary_lucene) YIELD node AS s, score
  WITH s, score, known_at
  WHERE s.tenant = $tenant AND @state_at(s, known_at) IN $states
    AND @believed_at(s, known_at)
    AND @visible_summary(s, $levels)
  WITH s, score, known_at ORDER BY score DESC, s.version_id LIMIT $pool
  RETURN 'summary' AS kind, score, null AS entity, s {.*, flag: @flag_at(s, known_at)} AS summary,
         [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace, null AS raw, null AS rank,
         null AS fact, null AS found, null AS premised, null AS sourced
  UNION ALL
  WITH 1 AS go WHERE $cut > 0
  CALL db.index.fulltext.queryNodes('fact_text', $lucene, {limit: $cut}) YIELD node AS f, score
  WITH f, score, valid_at, known_at, @state_at(f, known_at) AS state
  WITH f, score, state, known_at,
       f.tenant = $tenant AND state IN $states
       AND @believed_at(f, known_at)
       AND (f.valid_from IS NULL OR f.valid_from <= valid_at) AND (f.valid_to IS NULL OR f.valid_to > valid_at)
       AND ($any_kind OR f.kind IN $kinds)
       AND ($any_scope OR f.scope_key = rtrim($scope_key))
       AND @visible(f, $levels) AS visible
  ORDER BY score DESC, f.valid_from DESC, f.version_id
  WITH count(*) AS raw, collect(CASE WHEN visible THEN {f: f, score: score, state: state} END)[0..$pool] AS top,
       known_at
  UNWIND (CASE WHEN size(top) = 0 THEN [-1] ELSE range(0, size(top) - 1) END) AS i
  WITH raw, i + 1 AS rank, CASE WHEN i < 0 THEN null ELSE top[i] END AS hit, known_at
  WITH raw, rank, hit.score AS score, hit.f AS f, hit.state AS state, known_at
  WITH raw, rank, score, f, state, known_at, f IS NOT NULL AND rank <= $full AS whole
  RETURN 'fact' AS kind, score, null AS entity, null AS summary, null AS trace, raw, rank,
         CASE WHEN whole THEN f {.tenant, .fact_id, .version_id, .subject_name, .subject_id, .predicate,
          .object_type, .object_value, .object_id, .object_name, .statement, .quote, .scope_key, .kind, .evidence,
          .epistemic, .confidence, .sensitivity, .state, .valid_from_precision, .valid_to_precision, .ended_by,
          .end_reason, .bounded_by, .stale_cause, .lapse_reason, .aliases, .independent_sources,
          .forgotten_by, .forgotten_on_behalf_of, .forgotten_reason, forgotten_at: toString(f.forgotten_at),
          flag: @flag_at(f, known_at), @fact_instants(f), disputed: @disputed_at(f, known_at)} END AS fact,
         CASE WHEN f IS NOT NULL AND NOT whole THEN {fact_id: f.fact_id, version_id: f.version_id, state: state} END
           AS found,
         @premised(f) AS premised, f IS NOT NULL AND EXISTS { (f)-[:SOURCED_FROM]->() } AS sourced
}
RETURN kind, score, entity, summary, trace, raw, rank, fact, found, premised, sourced
