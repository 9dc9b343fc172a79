// End one inspector session (logout); idempotent: a revoked session keeps its first revocation time.
// $id_hash  sha256 hex digest of the session id
// $now      revocation time
// returns: revoked (0 or 1)
MATCH (s:UiSession {id_hash: $id_hash})
SET s.revoked_at = coalesce(s.revoked_at, $now)
RETURN count(s) AS revoked
