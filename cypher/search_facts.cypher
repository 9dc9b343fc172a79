// Fact versions a search finds on three paths (lexical, vector, graph), filtered BEFORE they are ranked: tenant,
// served states, known time, valid time, memory kind, scope and clearance, so a filtered-out version never takes
// a slot of any path's top $pool. The filter is written once, after the paths' candidates are unioned.
// $tenant        tenant id
// $lucene        Lucene query for the fact_text index (tenant clause included), or null (no lexical path)
// $vector        query embedding (384 floats), or null (no vector path)
// $vector_index  the tenant's own vector index, or null: an exact cosine scan of the tenant's versions instead
// $candidates    how many neighbours to take from the tenant's own vector index
// $entity_ids    ids of the entities the query names (graph path: the facts about them), may be empty
// $words         lower-case query words and joined word pairs (a fact whose predicate is named ranks higher)
// $valid_at      valid-time point (ISO 8601 text with offset)
// $known_at      known-time point (ISO 8601 text with offset; far future = believed now)
// $states        states to serve
// $kinds         memory kinds to serve, or null (any)
// $scope_key     canonical scope text, or null (any scope)
// $levels        lower-case sensitivity labels the caller may see, or null (every label)
// $unlabelled    whether the caller may see versions without a sensitivity
// $pool          how many candidates each path keeps after filtering
// returns: path, rank (1-based), score, fact (instants as ISO 8601 text)
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
CALL () {
  WITH 1 AS go WHERE $lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('fact_text', $lucene) YIELD node, score
  RETURN node AS f, score, 'lexical' AS path
  UNION ALL
  WITH 1 AS go WHERE $vector IS NOT NULL AND $vector_index IS NULL
  MATCH (f:Fact) WHERE f.tenant = $tenant AND f.state IN $states AND f.embedding IS NOT NULL
  RETURN f, vector.similarity.cosine(f.embedding, $vector) AS score, 'vector' AS path
  UNION ALL
  WITH 1 AS go WHERE $vector IS NOT NULL AND $vector_index IS NOT NULL
  CALL db.index.vector.queryNodes($vector_index, $candidates, $vector) YIELD node, score
  RETURN node AS f, score, 'vector' AS path
  UNION ALL
  UNWIND $entity_ids AS id
  CALL (id) {
    MATCH (f:Fact) WHERE f.subject_id = id RETURN f
    UNION
    MATCH (f:Fact) WHERE f.object_id = id RETURN f
  }
  WITH f, count(*) AS touches
  RETURN f, toFloat(touches + CASE WHEN toLower(f.predicate) IN $words THEN 1 ELSE 0 END) AS score, 'graph' AS path
}
WITH f, score, path, valid_at, known_at
WHERE f.tenant = $tenant AND f.state IN $states
  AND f.known_from <= known_at AND (f.known_to IS NULL OR f.known_to > known_at)
  AND (f.valid_from IS NULL OR f.valid_from <= valid_at) AND (f.valid_to IS NULL OR f.valid_to > valid_at)
  AND ($kinds IS NULL OR f.kind IN $kinds)
  AND ($scope_key IS NULL OR f.scope_key = $scope_key)
  AND ($levels IS NULL OR (f.sensitivity IS NULL AND $unlabelled) OR toLower(f.sensitivity) IN $levels)
WITH path, f, score, known_at
ORDER BY score DESC, f.valid_from DESC, f.version_id
WITH path, collect({f: f, score: score})[0..$pool] AS top, known_at
UNWIND range(0, size(top) - 1) AS i
WITH path, i + 1 AS rank, top[i].score AS score, top[i].f AS f, known_at
RETURN path, rank, score, f {.*, embedding: null,
          valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          known_from: toString(f.known_from), known_to: toString(f.known_to), verified_at: toString(f.verified_at),
          disputed: EXISTS { (:Fact)-[c:CONFLICTS_WITH]->(f)
                             WHERE c.known_from <= known_at AND (c.known_to IS NULL OR c.known_to > known_at) }} AS fact
