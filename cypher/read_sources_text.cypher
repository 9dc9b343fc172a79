// The text of sources by id (null once forgotten), for summary trace checks.
// $tenant      tenant id
// $source_ids  source ids
// returns: source_id, text
UNWIND $source_ids AS id
MATCH (s:Source {source_id: id})
WHERE s.tenant = $tenant
RETURN s.source_id AS source_id, s.text AS text
