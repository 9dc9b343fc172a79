// Summary versions of one tenant whose topic or text match a Lucene query, filtered before they are ranked: states,
// known time, and clearance (a summary is as sensitive as the most sensitive fact it was derived from).
// $lucene      Lucene query for the summary_text index (tenant clause included)
// $tenant      tenant id
// $known_at    known-time point (ISO 8601 text with offset; far future = believed now)
// $states      states to serve
// $levels      lower-case sensitivity labels the caller may see, or null (every label)
// $unlabelled  whether the caller may see versions without a sensitivity
// $pool        how many summaries to return
// returns: summary (map projection), trace, score (best first)
WITH datetime($known_at) AS known_at
CALL db.index.fulltext.queryNodes('summary_text', $lucene) YIELD node AS s, score
WITH s, score, known_at
WHERE s.tenant = $tenant AND s.state IN $states
  AND s.known_from <= known_at AND (s.known_to IS NULL OR s.known_to > known_at)
  AND ($levels IS NULL OR all(f IN [(s)-[:DERIVED_FROM]->(x:Fact) | x]
                              WHERE (f.sensitivity IS NULL AND $unlabelled) OR toLower(f.sensitivity) IN $levels))
WITH s, score ORDER BY score DESC, s.version_id LIMIT $pool
RETURN s {.*} AS summary, [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace, score
