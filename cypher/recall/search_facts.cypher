// Fact versions a search finds on three paths (lexical, vector, graph), filtered BEFORE they are ranked: tenant,
// served states, known time, valid time, memory kind, scope and clearance, so a filtered-out version never takes
// a slot of any path's top $pool. Each path first hands over its best $candidates: Lucene's top k (the tenant a
// required clause of the query), the `fact_search` vector index's top k among the versions its own filter admits
// (tenant, known and valid interval, sensitivity rank: Cypher 25's SEARCH filters inside the index, on the keys of
// schema/search.py search_keys), the graph path's top k by score. The exact filter — written once, after the
// paths' candidates are unioned — then runs on those only (the state at the known time, which lives on flags, kind,
// scope, and again the instants and @visible), and the caller widens $cuts while a cut path ran out of visible ones.
// Flags and the disputed / premised checks are read for the returned rows only.
// $tenant        tenant id
// $lucene        Lucene query for the `fact_text` index (tenant clause included), '' with no lexical path (its cut
//                is 0 then). Every parameter keeps one type and size bucket whatever the search asks (no null for
//                "none", lists padded with '', texts with trailing spaces, trimmed where compared): Neo4j keys its
//                plans by them, and planning this query costs 130-450 ms (graph/recall/search.py LIST_SIZE)
// $vector        query embedding (384 floats), or null (no vector path)
// $vector_cut    how many candidates the vector index hands over ($cuts.vector; SEARCH's LIMIT takes a parameter)
// $known_key     $known_at as epoch milliseconds (floor): the index keeps versions with known_from_key <= it <=
//                known_to_key, a superset of those believed then
// $valid_key     $valid_at as epoch milliseconds (floor), the same for the valid interval
// $rank          the caller's clearance as a sensitivity rank (schema/search.py clearance_rank): the index keeps
//                versions ranked at most this; @visible decides after
// $vector_floor  the least vector score a candidate needs, on Neo4j's scale ((1 + cosine) / 2): below it a version
//                is not about the question, so the vector path may find nothing (services/recall/search_rules.py)
// $cuts          map path -> how many candidates it hands over before filtering ({lexical, vector, graph}; 0 skips
//                the path: the caller re-runs only a path whose candidates ran out of visible ones, with more)
// $entity_ids    ids of the entities the query names (graph path: the facts about them, a rarer name weighing
//                more); [''] for none (no entity has the id '')
// $words         lower-case query words and joined word pairs (a fact whose predicate is named ranks higher); ['']
//                for none
// $valid_at      valid-time point (ISO 8601 text with offset)
// $known_at      known-time point (ISO 8601 text with offset; far future = believed now)
// $states        states to serve
// $any_kind      whether every memory kind is served ($kinds is then [''])
// $kinds         memory kinds to serve
// $any_scope     whether every scope is served ($scope_key is then '')
// $scope_key     canonical scope text to serve
// $levels        sensitivity labels the caller may see (Tx.rows supplies them from its clearance: one type and
//                size bucket for every clearance)
// $pool          how many candidates each path keeps after filtering
// $full          map path -> how many of its best visible candidates carry the full version (the ranks fusion can
//                serve); the rest carry their keys only
// returns: (plain values only) path, raw (candidates the path produced before filtering), rank (1-based), score, fact (the full version,
//          instants as ISO 8601 text; null beyond the path's $full ranks and on the one row of a path with no
//          visible candidate), found (fact_id, version_id, state: the keys of a visible candidate beyond $full; else
//          null), premised (rests on premises), sourced (a source is linked: only such a relation can be weak, so
//          only those need their sources read, services/facts/evidence_rules.py `weak`)
CYPHER 25
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
CALL (valid_at, known_at) {
  WITH 1 AS go WHERE $cuts.lexical > 0
  CALL db.index.fulltext.queryNodes('fact_text', $lucene, {limit: $cuts.lexical}) YIELD node, score
  RETURN node AS f, score, 'lexical' AS path
  UNION ALL
  WITH 1 AS go WHERE $vector IS NOT NULL AND $vector_cut > 0
  MATCH (f:Fact)
    SEARCH f IN (VECTOR INDEX fact_search FOR $vector
      WHERE f.tenant = $tenant AND f.known_from_key <= $known_key AND f.known_to_key >= $known_key
        AND f.valid_from_key <= $valid_key AND f.valid_to_key >= $valid_key AND f.sensitivity_rank <= $rank
      LIMIT $vector_cut) SCORE AS score
  WITH f, score WHERE score >= $vector_floor
  RETURN f, score, 'vector' AS path
  UNION ALL
  WITH 1 AS go WHERE $cuts.graph > 0
  UNWIND $entity_ids AS id
  CALL (id) {
    MATCH (f:Fact) WHERE f.subject_id = id AND @visible(f, $levels) RETURN f
    UNION
    MATCH (f:Fact) WHERE f.object_id = id AND @visible(f, $levels) RETURN f
  }
  // a named entity weighs 1 / (how many versions the caller may see touch it): a rare name says more than a common
  // one, and versions above the caller's clearance neither weigh nor show in the score
  WITH id, collect(f) AS touching
  UNWIND touching AS f
  WITH f, sum(1.0 / size(touching)) AS weight
  // the property filters (not the state, read after the cut) before the cut: a hub entity's history (versions
  // known or valid at other times) never uses up the path's candidates
  WHERE @believed_at(f, known_at)
    AND (f.valid_from IS NULL OR f.valid_from <= valid_at) AND (f.valid_to IS NULL OR f.valid_to > valid_at)
  WITH f, weight + CASE WHEN toLower(f.predicate) IN $words THEN 1.0 ELSE 0.0 END AS score
  ORDER BY score DESC, f.valid_from DESC, f.version_id LIMIT $cuts.graph
  RETURN f, score, 'graph' AS path
}
WITH f, score, path, valid_at, known_at, @state_at(f, known_at) AS state
WITH f, score, path, valid_at, known_at, state,
     f.tenant = $tenant AND state IN $states
     AND @believed_at(f, known_at)
     AND (f.valid_from IS NULL OR f.valid_from <= valid_at) AND (f.valid_to IS NULL OR f.valid_to > valid_at)
     AND ($any_kind OR f.kind IN $kinds)
     AND ($any_scope OR f.scope_key = rtrim($scope_key))
     AND @visible(f, $levels) AS visible
ORDER BY score DESC, f.valid_from DESC, f.version_id
// collect() drops the nulls: only visible candidates are ranked, while count(*) says how many the path produced
WITH path, count(*) AS raw, collect(CASE WHEN visible THEN {f: f, score: score, state: state} END)[0..$pool] AS top,
     known_at
UNWIND (CASE WHEN size(top) = 0 THEN [-1] ELSE range(0, size(top) - 1) END) AS i
WITH path, raw, i, CASE WHEN i < 0 THEN null ELSE top[i] END AS hit, known_at
WITH path, raw, i + 1 AS rank, hit.score AS score, hit.f AS f, hit.state AS state, known_at
// only the ranks fusion can serve are read in full (decoding the pool's every version was most of the client time)
WITH path, raw, rank, score, f, state, known_at, f IS NOT NULL AND rank <= $full[path] AS whole
// an explicit property list: `f {.*}` would read every returned version's 384-float embedding
RETURN path, raw, rank, score, CASE WHEN whole THEN f {.tenant, .fact_id, .version_id, .subject_name, .subject_id, .predicate,
          .object_type, .object_value, .object_id, .object_name, .statement, .quote, .scope_key, .kind, .evidence,
          .epistemic, .confidence, .sensitivity, .state, .valid_from_precision, .valid_to_precision, .ended_by,
          .end_reason, .bounded_by, .stale_cause, .lapse_reason, .aliases, .independent_sources,
          .forgotten_by, .forgotten_on_behalf_of, .forgotten_reason, forgotten_at: toString(f.forgotten_at), flag: @flag_at(f, known_at),
          @fact_instants(f), disputed: @disputed_at(f, known_at)} END AS fact,
       CASE WHEN f IS NOT NULL AND NOT whole THEN {fact_id: f.fact_id, version_id: f.version_id, state: state} END AS found,
       @premised(f) AS premised, f IS NOT NULL AND EXISTS { (f)-[:SOURCED_FROM]->() } AS sourced
