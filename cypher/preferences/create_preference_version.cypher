// Write a preference posterior's new version: close the version it replaces (when $previous names one) at the
// write's known time and create the new one, known from then on. A posterior is never changed in place.
// $tenant    tenant id
// $known     known time of the write
// $previous  version id of the current version it replaces (null for the first outcome)
// $row       the new version's properties (fact_id, version_id, alpha, beta, outcomes, recent, sensitivity)
// returns: version_id
OPTIONAL MATCH (old:PreferencePosterior {tenant: $tenant, version_id: $previous})
WHERE old.known_to IS NULL
SET old.known_to = $known
WITH count(old) AS closed
CREATE (p:PreferencePosterior)
SET p = $row, p.tenant = $tenant, p.known_from = $known
RETURN p.version_id AS version_id
