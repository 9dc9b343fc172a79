// Record where claims were stated: (version)-[:SOURCED_FROM {quote, span}]->(source).
// $known  known time of the write
// $rows   list of {version_id, source_id, quote, span}
// returns: linked
UNWIND $rows AS row
MATCH (f:Fact {version_id: row.version_id})
MATCH (s:Source {source_id: row.source_id})
CREATE (f)-[:SOURCED_FROM {quote: row.quote, span: row.span, known_from: $known}]->(s)
RETURN count(*) AS linked
