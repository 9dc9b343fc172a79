// Full-text probe of the fact index with a forgotten text: hits in the tenant (any known time).
// $tenant  tenant id
// $phrase   Lucene query (the text, escaped and quoted)
// returns: version_id, fact_id, statement, quote
CALL db.index.fulltext.queryNodes('fact_text', $phrase) YIELD node
WITH node WHERE node.tenant = $tenant
RETURN node.version_id AS version_id, node.fact_id AS fact_id, node.statement AS statement, node.quote AS quote
LIMIT 50
