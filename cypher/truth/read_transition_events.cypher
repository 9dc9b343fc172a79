// The ledger events of a known window ($known_before, $known_after] in chain order, for the transition check
// (services/truth/transition.py): each event names the ids it acted on; one naming a fact version the caller may not
// see is marked hidden and returned with its known time only (no ids, no detail), so the check counts it and never
// names it. With $scope_key, only events naming a fact version of that scope.
// $tenant         tenant id
// $known_before   the window's start (excluded)
// $known_after    the window's end (included)
// $scope_key      canonical scope text (schema/facts.py scope_key), or null for every scope
// $limit          the most events to return (the service refuses a window holding more)
// $levels         sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: event_id, seq, at, action, subject_id, ids, detail (JSON text), hidden
MATCH (a:AuditEvent {tenant: $tenant})
WHERE a.at > $known_before AND a.at <= $known_after
  AND ($scope_key IS NULL
       OR EXISTS { MATCH (s:Fact) WHERE s.fact_id IN a.ids AND s.tenant = $tenant AND s.scope_key = $scope_key }
       OR EXISTS { MATCH (s:Fact) WHERE s.version_id IN a.ids AND s.tenant = $tenant AND s.scope_key = $scope_key })
// each look-up seeks one index (fact ids, version ids); a caller cleared for all skips them
WITH a, NOT ('*' IN $levels)
        AND (EXISTS { MATCH (f:Fact) WHERE f.fact_id IN a.ids AND f.tenant = $tenant AND NOT @visible(f, $levels) }
             OR EXISTS { MATCH (f:Fact) WHERE f.version_id IN a.ids AND f.tenant = $tenant
                                              AND NOT @visible(f, $levels) }) AS hidden
RETURN CASE WHEN hidden THEN null ELSE a.event_id END AS event_id, a.seq AS seq, a.at AS at,
       CASE WHEN hidden THEN null ELSE a.action END AS action,
       CASE WHEN hidden THEN null ELSE a.subject_id END AS subject_id,
       CASE WHEN hidden THEN [] ELSE coalesce(a.ids, []) END AS ids,
       CASE WHEN hidden THEN null ELSE a.detail END AS detail, hidden
ORDER BY a.at, a.seq
LIMIT $limit
