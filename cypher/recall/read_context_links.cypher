// For each version, how it stopped applying as known at a point: the versions that supersede it (another fact, or a
// correction of the same fact: kind, at, their
// statement) and, when it ended by a write on an earlier version, that version's end kind and reason. Only versions
// the caller may see are explained or named as successors.
// $version_ids  versions to explain
// $known_at     known-time point (ISO 8601 text with offset; far future = believed now)
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: version_id, successors (list of {kind, at, statement, fact_id, version_id}), predecessor ({ended_by,
//          end_reason} of the version it supersedes, or null)
WITH datetime($known_at) AS known_at
UNWIND $version_ids AS version_id
MATCH (f:Fact {version_id: version_id})
WHERE @visible(f, $levels)
CALL (f, known_at) {
  OPTIONAL MATCH (n:Fact)-[s:SUPERSEDES]->(f)
  WHERE s.known_from <= known_at AND (n.fact_id <> f.fact_id OR s.kind = 'correction') AND @visible(n, $levels)
  WITH s, n ORDER BY s.known_from
  RETURN collect(CASE WHEN s IS NULL THEN null ELSE {kind: s.kind, at: toString(s.at), statement: n.statement,
                                                      fact_id: n.fact_id, version_id: n.version_id} END) AS successors
}
CALL (f, known_at) {
  OPTIONAL MATCH (f)-[s:SUPERSEDES]->(o:Fact)
  WHERE s.known_from <= known_at AND o.fact_id = f.fact_id
  WITH o ORDER BY s.known_from DESC LIMIT 1
  RETURN CASE WHEN o IS NULL THEN null ELSE {ended_by: o.ended_by, end_reason: o.end_reason} END AS predecessor
}
RETURN version_id, successors, predecessor
