// Migration 0007: pairs of versions written the old way for a state change (the cascade's stale flag, a
// re-verification that held, a reinforcement): the successor b began when a ended, a ended as a state change for
// one of those reasons, and b says exactly what a says (only state, stale cause and verification time differ).
// clearance: not applied: a migration over every version
// $reasons  the end reasons of the old state-change writes
// $content  the property names that must be equal (what a claim says)
// $limit    at most this many pairs
// returns: a_id (the version kept), b_id (its state-only successor, to become a flag), oldest first
MATCH (a:Fact)
WHERE a.ended_by = 'state_change' AND a.end_reason IN $reasons AND a.known_to IS NOT NULL
MATCH (b:Fact {fact_id: a.fact_id})
WHERE b.tenant = a.tenant AND b.known_from = a.known_to AND b.version_id <> a.version_id
  AND all(k IN $content WHERE a[k] = b[k] OR (a[k] IS NULL AND b[k] IS NULL))
  AND NOT EXISTS { (b)-[:SUPERSEDES]->(a) }
RETURN a.version_id AS a_id, b.version_id AS b_id
ORDER BY a.known_to
LIMIT $limit
