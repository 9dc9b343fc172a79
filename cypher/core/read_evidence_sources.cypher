// What kind of evidence backs several versions, as believed at a known point: for each version, the kind, origin
// and independence marks (author, uri, title) of its sources, never their text, for the read-time marks of
// evidence by consequence and weak relations (services/facts/evidence_rules.py). Versions and sources the caller
// may see (cypher/fragments/visible_source.cypher): a hidden source counts for nothing.
// $version_ids  the versions
// $known_at     known-time point (ISO 8601 text with offset; far future = believed now)
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: version_id, sources (list of {source_id, kind, origin, author, uri, title})
UNWIND $version_ids AS version_id
MATCH (f:Fact {version_id: version_id})
WHERE @visible(f, $levels)
WITH f, version_id, datetime($known_at) AS known_at
OPTIONAL MATCH (f)-[r:SOURCED_FROM]->(s:Source)
WHERE @believed_at(r, known_at) AND @visible_source(s, $levels)
RETURN version_id, collect(CASE WHEN s IS NULL THEN null ELSE
                           {source_id: s.source_id, kind: s.kind, origin: s.origin, author: s.author, uri: s.uri,
                            title: s.title} END) AS sources
