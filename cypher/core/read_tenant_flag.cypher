// A tenant flag as set at a known time (the latest setting known then); no row when it was never set (off).
// $tenant  tenant id
// $flag    the flag's name (schema/preferences.py TENANT_FLAGS)
// $known   known time of the read
// returns: enabled, known_from
MATCH (s:TenantFlag {tenant: $tenant, flag: $flag})
WHERE @believed_at(s, $known)
RETURN s.enabled AS enabled, s.known_from AS known_from
ORDER BY s.known_from DESC
LIMIT 1
