// Sources by id.
// $tenant      tenant id
// $source_ids  list of source ids
// returns: source
UNWIND $source_ids AS sid
MATCH (s:Source {source_id: sid})
WHERE s.tenant = $tenant
RETURN s {.*} AS source
