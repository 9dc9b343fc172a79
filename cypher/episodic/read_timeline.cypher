// The episodes (facts of kind 'episodic') of one entity (subject) or one session (the messages they were stated in,
// by SOURCED_FROM), as believed at a known point, in a served state then and visible to the caller, placed at their
// valid_from (their known_from when undated) within [$from, $to), in time order: that instant, then known_from,
// then version id (a unique order). A page is cut here by that key (keyset), never from the whole list.
// $tenant       tenant id
// $subject_ids  every id of the entity (through merges), or null to read a session
// $session_id   the session id, or null to read an entity
// $known_at     the known point (far future = believed now)
// $states       the served states
// $from         the earliest instant placed (null: from the first)
// $to           the instant the window ends before (null: no end)
// $after        [instant, known_from, version id] (ISO 8601 texts) of the episode the page starts after (null: first)
// $limit        the most episodes to return (a page and one more, to know whether another follows; ALL for all)
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact
CALL () {
  MATCH (f:Fact)
  WHERE $session_id IS NULL AND f.subject_id IN $subject_ids AND f.tenant = $tenant
  RETURN f
  UNION
  MATCH (s:Source {tenant: $tenant, session_id: $session_id})<-[:SOURCED_FROM]-(f:Fact)
  WHERE s.kind = 'message'
  RETURN f
}
WITH f
WHERE f.kind = 'episodic' AND @believed_at(f, $known_at) AND @state_at(f, $known_at) IN $states
  AND @visible(f, $levels)
WITH f, coalesce(f.valid_from, f.known_from) AS at
WHERE ($from IS NULL OR at >= datetime($from)) AND ($to IS NULL OR at < datetime($to))
  AND ($after IS NULL OR at > datetime($after[0])
       OR (at = datetime($after[0]) AND (f.known_from > datetime($after[1])
           OR (f.known_from = datetime($after[1]) AND f.version_id > $after[2]))))
RETURN f {@fact_fields(f, $known_at), disputed: false} AS fact
ORDER BY at, f.known_from, f.version_id
LIMIT $limit
