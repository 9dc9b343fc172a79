// Every episode (fact of kind 'episodic') of the tenant not yet forgotten that the caller may see (roll-off forgets
// through `forget`, which refuses what the caller may not see), with what its age is measured from: its valid_from,
// and the known_from of its first version (a later version, e.g. its admission, does not restart its age).
// $tenant  tenant id
// $states  the states an episode may still roll off from (every state but forgotten and deleted)
// $levels  sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact_id, scope_key, valid_from, known_from (instants as ISO 8601 text)
MATCH (f:Fact)
WHERE f.tenant = $tenant AND f.kind = 'episodic' AND f.known_to IS NULL AND @state_at(f, null) IN $states
  AND @visible(f, $levels)
CALL (f) {
  MATCH (g:Fact {fact_id: f.fact_id})
  WHERE g.tenant = $tenant
  RETURN min(g.known_from) AS first
}
RETURN f.fact_id AS fact_id, f.scope_key AS scope_key, toString(f.valid_from) AS valid_from,
       toString(first) AS known_from
ORDER BY first, fact_id
