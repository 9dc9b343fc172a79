// Sources by id: only those the caller may see (cypher/fragments/visible_source.cypher); a source it may not see is
// absent from the answer exactly like a missing one.
// $tenant      tenant id
// $source_ids  list of source ids
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: source
UNWIND $source_ids AS sid
MATCH (s:Source {source_id: sid})
WHERE s.tenant = $tenant AND @visible_source(s, $levels)
RETURN s {.*} AS source
