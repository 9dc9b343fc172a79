// Note a session's use: its idle time starts again (a session already revoked is left as it is).
// $id_hash  sha256 hex digest of the session id
// $now      when it was used
// returns: touched (how many sessions were noted: 0 or 1)
MATCH (s:UiSession {id_hash: $id_hash})
WHERE s.revoked_at IS NULL AND s.last_seen < $now
SET s.last_seen = $now
RETURN count(s) AS touched
