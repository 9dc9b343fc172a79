// Stop believing versions: close known_to (and their ABOUT edges, and the search index's known_to_key:
// schema/search.py search_keys), recording how and why they ended.
// Only versions still believed are closed, so a raced write sees fewer ids than it asked for.
// $known  known time of the write
// $rows   list of {version_id, ended_by, reason}
// returns: closed (list of version ids actually closed)
UNWIND $rows AS row
MATCH (f:Fact {version_id: row.version_id})
WHERE f.known_to IS NULL
SET f.known_to = $known, f.ended_by = row.ended_by, f.end_reason = row.reason
SET f.known_to_key = f.known_to.epochMillis  // the one search key a close changes (schema/search.py search_keys)
WITH f
OPTIONAL MATCH (f)-[r:ABOUT]->()
SET r.known_to = $known
RETURN collect(DISTINCT f.version_id) AS closed
