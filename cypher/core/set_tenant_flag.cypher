// Set a tenant flag from the write's known time on: close the setting believed until now and create the new one (a
// setting is never changed in place, so a read at an earlier known time keeps its answer).
// $tenant   tenant id
// $flag     the flag's name (schema/preferences.py TENANT_FLAGS)
// $enabled  on or off
// $known    known time of the write
// returns: enabled, known_from
OPTIONAL MATCH (old:TenantFlag {tenant: $tenant, flag: $flag})
WHERE old.known_to IS NULL
SET old.known_to = $known
WITH count(old) AS closed
CREATE (s:TenantFlag {tenant: $tenant, flag: $flag, enabled: $enabled, known_from: $known})
RETURN s.enabled AS enabled, s.known_from AS known_from
