// Revoke an API key (idempotent: an already revoked key keeps its first revocation time).
// $key_id      public id of the key
// $at          revocation time
// returns: key (map projection), or no row when no such key exists
MATCH (k:ApiKey {key_id: $key_id})
SET k.revoked_at = coalesce(k.revoked_at, $at)
RETURN k {.*} AS key
