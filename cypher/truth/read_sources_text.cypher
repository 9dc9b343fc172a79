// The text of sources by id (null once forgotten), for summary inputs and trace checks: only for a caller who may
// see the source (cypher/fragments/visible_source.cypher: its label, and no evidence for a version above it).
// $tenant      tenant id
// $source_ids  source ids
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: source_id, text
UNWIND $source_ids AS id
MATCH (s:Source {source_id: id})
WHERE s.tenant = $tenant AND @visible_source(s, $levels)
RETURN s.source_id AS source_id, s.text AS text
