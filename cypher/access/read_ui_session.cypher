// One inspector session by the hash of its id, with the API key it acts with (read on every page request, so a
// revoked key ends its sessions at once).
// $id_hash  sha256 hex digest of the session id
// returns: session (map projection), key (map projection of its :ApiKey, null when the key is gone); or no row
MATCH (s:UiSession {id_hash: $id_hash})
OPTIONAL MATCH (k:ApiKey {key_id: s.key_id})
RETURN s {.*} AS session, k {.*} AS key
