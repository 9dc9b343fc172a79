// The state flags drawn inside the known window ($known_a, $known_b] on fact versions the caller may see (stale by a
// cascade, forgotten, deprecated, quarantined, ...): each with its state, when, the kind of its state change, its
// cause line (and the path from the root, for a cascade) and its reason. The window is read on the edges (migration
// 0007 drew flags of many known times into one node); `change_id IS NOT NULL` makes the tenant's nodes a seek of the
// (tenant, change_id) index rather than a scan of every tenant's.
// $tenant       tenant id
// $known_a      the window's start (excluded)
// $known_b      the window's end (included)
// $subject_ids  the ids of the subject entity (its merged family), or null for every subject
// $scope_key    canonical scope text (schema/facts.py scope_key), or null for every scope
// $limit        the most rows to return (the belief diff refuses a window holding more)
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact (the flagged version as stored), state, at, kind, cause, path, reason
MATCH (c:StateChange)
WHERE c.tenant = $tenant AND c.change_id IS NOT NULL
MATCH (f:Fact)-[g:FLAGGED]->(c)
WHERE g.known_from > $known_a AND g.known_from <= $known_b
  AND @visible(f, $levels)
  AND ($subject_ids IS NULL OR f.subject_id IN $subject_ids)
  AND ($scope_key IS NULL OR f.scope_key = $scope_key)
RETURN f {.*, embedding: null, disputed: false} AS fact, g.state AS state, g.known_from AS at, c.kind AS kind,
       c.causes[coalesce(g.cause, 0)] AS cause, g.path AS path, coalesce(g.reason, c.reason) AS reason
ORDER BY at, f.version_id
LIMIT $limit
