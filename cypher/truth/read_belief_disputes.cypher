// The disputes opened or resolved inside the known window ($known_a, $known_b]: a CONFLICTS_WITH edge first drawn
// then (an edge carried to a newer version keeps when it opened, `opened_at`, and is no new dispute), or resolved
// then. Listed only when the caller may see both sides, every established version of the conflict included (as
// cypher/facts/read_conflicts.cypher lists conflicts).
// $tenant       tenant id
// $known_a      the window's start (excluded)
// $known_b      the window's end (included)
// $subject_ids  the ids of the subject entity (its merged family), or null for every subject
// $scope_key    canonical scope text (schema/facts.py scope_key), or null for every scope
// $limit        the most rows to return (the belief diff refuses a window holding more)
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) conflict_id, opened_at (null unless inside the window), resolved_at (likewise),
//          decision, challenger, established (the two versions as stored)
MATCH (c:Fact)-[r:CONFLICTS_WITH]->(e:Fact)
WHERE c.tenant = $tenant
  AND ((r.opened_at IS NULL AND r.known_from > $known_a AND r.known_from <= $known_b)
       OR (r.status = 'resolved' AND r.known_to > $known_a AND r.known_to <= $known_b))
  AND @visible(c, $levels) AND @visible(e, $levels)
  AND ('*' IN $levels OR NOT EXISTS { MATCH (c)-[other:CONFLICTS_WITH]->(held:Fact)
                                      WHERE other.conflict_id = r.conflict_id AND NOT @visible(held, $levels) })
  AND ($subject_ids IS NULL OR c.subject_id IN $subject_ids OR e.subject_id IN $subject_ids)
  AND ($scope_key IS NULL OR c.scope_key = $scope_key OR e.scope_key = $scope_key)
RETURN r.conflict_id AS conflict_id,
       CASE WHEN r.opened_at IS NULL AND r.known_from > $known_a AND r.known_from <= $known_b THEN r.known_from
       END AS opened_at,
       CASE WHEN r.status = 'resolved' AND r.known_to > $known_a AND r.known_to <= $known_b THEN r.known_to
       END AS resolved_at,
       r.decision AS decision,
       c {.*, embedding: null, disputed: false} AS challenger, e {.*, embedding: null, disputed: false} AS established
ORDER BY coalesce(opened_at, resolved_at), conflict_id, e.version_id
LIMIT $limit
