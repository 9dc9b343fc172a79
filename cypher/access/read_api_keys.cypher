// API keys, oldest first, optionally of one tenant; hashes are returned for the caller to drop.
// $tenant      tenant to list, or null for every tenant
// returns: key (map projection) per key
MATCH (k:ApiKey)
WHERE $tenant IS NULL OR k.tenant = $tenant
RETURN k {.*} AS key
ORDER BY k.created_at, k.key_id
