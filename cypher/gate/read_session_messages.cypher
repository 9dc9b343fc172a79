// Every message of a session (all generations), in generation and position order. A message the caller may not see
// (cypher/fragments/visible_source.cypher) comes back as its position alone, marked hidden: the gate, acceptance
// and extraction read it as missing; only ingest_messages uses it, to refuse writing a second message there.
// $tenant      tenant id
// $session_id  session id
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: source (map; a hidden one holds only its generation and index), hidden (boolean)
MATCH (s:Source {tenant: $tenant, session_id: $session_id})
WHERE s.kind = 'message'
WITH s, @visible_source(s, $levels) AS visible
RETURN CASE WHEN visible THEN s {.*} ELSE s {.generation, .index} END AS source, NOT visible AS hidden
ORDER BY s.generation, s.index
