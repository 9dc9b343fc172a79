// The posterior of one preference fact as believed now ($known null: its current version) or at a past known time,
// when the caller may see it, with the id of the drift item open for it then (null when none).
// $tenant   tenant id
// $fact_id  the preference fact's id
// $known    known time of the read, or null for now
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: posterior (null when no outcome was counted by then), drift
OPTIONAL MATCH (p:PreferencePosterior {tenant: $tenant, fact_id: $fact_id})
WHERE (CASE WHEN $known IS NULL THEN p.known_to IS NULL ELSE @believed_at(p, $known) END) AND @visible(p, $levels)
OPTIONAL MATCH (d:PreferenceDrift {tenant: $tenant, fact_id: $fact_id})
WHERE (CASE WHEN $known IS NULL THEN d.known_to IS NULL ELSE @believed_at(d, $known) END) AND @visible(d, $levels)
RETURN p {.*} AS posterior, d.conflict_id AS drift
LIMIT 1
