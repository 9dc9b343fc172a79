// The sources and the latest verdict of several versions as believed at a known point: each source with the
// verbatim quote and the message pointer (source id, session, generation, index), for the items of a context package
// (versions and sources the caller may see: cypher/fragments/visible_source.cypher). The verdict is read here, not in
// a query of its own (cypher/verify/read_verifications.cypher reads the same for `why`): a package costs no round
// trip for verdicts, and a version never judged costs one look at its VERIFIED_BY degree.
// $version_ids  the versions
// $known_at     known-time point (ISO 8601 text with offset; far future = believed now)
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: version_id, sources (list of {source_id, kind, quote, session_id, generation, index, author, origin, at}),
//          verification (the latest :Verification known at the point, its properties; null when none)
WITH datetime($known_at) AS known_at
UNWIND $version_ids AS version_id
MATCH (f:Fact {version_id: version_id})
WHERE @visible(f, $levels)
CALL (f, known_at) {
  OPTIONAL MATCH (f)-[r:SOURCED_FROM]->(s:Source)
  WHERE @believed_at(r, known_at) AND @visible_source(s, $levels)
  WITH r, s ORDER BY r.known_from, s.session_id, s.index
  RETURN collect(CASE WHEN s IS NULL THEN null ELSE
                 {source_id: s.source_id, kind: s.kind, quote: r.quote, session_id: s.session_id,
                  generation: s.generation, index: s.index, author: s.author, origin: s.origin,
                  at: toString(s.at)} END) AS sources
}
CALL (f, known_at) {
  OPTIONAL MATCH (f)-[:VERIFIED_BY]->(v:Verification)
  WHERE v.known_from <= known_at
  WITH v ORDER BY v.known_from DESC, v.verification_id DESC
  RETURN collect(v)[0] AS latest
}
RETURN version_id, sources, latest {.*} AS verification
