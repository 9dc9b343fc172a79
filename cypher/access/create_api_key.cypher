// Create one API key: its public id, the sha256 of its secret (never the secret), the tenant, clearance and scopes
// it grants.
// $key_id      public id of the key (the part before the secret)
// $hash        sha256 hex digest of the secret
// $tenant      tenant every request with this key acts in
// $clearance   sensitivity clearance granted to the key
// $scopes      the operations' scopes it grants (schema/api_keys.py SCOPES)
// $name        a label for people
// $created_at  when the key was created
// returns: key (map projection of the :ApiKey node)
CREATE (k:ApiKey {key_id: $key_id, hash: $hash, tenant: $tenant, clearance: $clearance, scopes: $scopes,
                  name: $name, created_at: $created_at})
RETURN k {.*} AS key
