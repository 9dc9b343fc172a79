// Create immutable Source nodes (messages, documents, tool results, observations).
// $tenant  tenant id
// $known   known time of the write
// $rows    list of source property maps (source_id, kind, text, title, uri, author, at, session_id, generation, index, role, origin, text_hash)
// returns: created
UNWIND $rows AS row
CREATE (s:Source)
SET s = row, s.tenant = $tenant, s.known_from = $known
RETURN count(s) AS created
