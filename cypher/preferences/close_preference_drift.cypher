// Close an open drift item by a person's decision (the preference itself is left as it is).
// $tenant       tenant id
// $conflict_id  the drift item's id
// $decision     the decision recorded
// $known        known time of the write
// returns: closed (1 when an open item closed, else 0)
OPTIONAL MATCH (d:PreferenceDrift {tenant: $tenant, conflict_id: $conflict_id})
WHERE d.known_to IS NULL
SET d.known_to = $known, d.status = 'resolved', d.decision = $decision
RETURN count(d) AS closed
