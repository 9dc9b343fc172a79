// Who or what each version was stated by: the sources of its believed SOURCED_FROM edges, with the fields that tell
// independent sources apart (a person or a document counts once however often it restates a claim).
// clearance: not applied: who stated a claim, for counting independent sources at write; nothing is served
// $version_ids  version ids
// returns: version_id, sources (list of {source_id, kind, author, uri, title, span}; span: where the edge's quote
//          sits in the source, null when it has none)
UNWIND $version_ids AS vid
MATCH (f:Fact {version_id: vid})
OPTIONAL MATCH (f)-[r:SOURCED_FROM]->(s:Source)
WHERE r.known_to IS NULL
RETURN vid AS version_id,
       collect(CASE WHEN s IS NULL THEN null
                    ELSE {source_id: s.source_id, kind: s.kind, author: s.author, uri: s.uri, title: s.title,
                          span: r.span} END)
       AS sources
