// End every open inspector session of one API key (the key was revoked).
// $key_id  public id of the key
// $now     revocation time
// returns: revoked (how many sessions were open)
MATCH (s:UiSession {key_id: $key_id})
WHERE s.revoked_at IS NULL
SET s.revoked_at = $now
RETURN count(s) AS revoked
