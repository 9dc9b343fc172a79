// Open one inspector session: the sha256 of its opaque id (never the id), the key it acts with, and its lifetime.
// $id_hash     sha256 hex digest of the session id the browser holds
// $key_id      public id of the API key the session acts with
// $tenant      the key's tenant
// $now         when it opens (also its first use)
// $expires_at  when it ends however busy (the absolute lifetime)
// returns: session (map projection of the :UiSession node)
CREATE (s:UiSession {id_hash: $id_hash, key_id: $key_id, tenant: $tenant, created_at: $now, last_seen: $now,
                     expires_at: $expires_at})
RETURN s {.*} AS session
