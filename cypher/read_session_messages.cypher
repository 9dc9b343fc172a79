// Every message of a session (all generations), in generation and position order.
// $tenant      tenant id
// $session_id  session id
// returns: source
MATCH (s:Source {tenant: $tenant, session_id: $session_id})
WHERE s.kind = 'message'
RETURN s {.*} AS source
ORDER BY s.generation, s.index
