// Conflicts of a tenant, optionally only open ones or one by id, oldest first (by the time each was opened, then by
// id: a unique order), from the one after the page's key (a page cut in the query by its key). Edges left behind
// when a dispute was carried to a newer version of either side (status 'carried') are history of the same
// conflict, not conflicts of their own.
// $tenant        tenant id
// $conflict_id   conflict id or null
// $open_only     only conflicts still awaiting a decision
// $after_opened  when the conflict the page starts after was opened (null: from the first)
// $after_id      id of the conflict the page starts after (null: from the first)
// $limit         the most conflicts to return (a page and one more, to know whether another follows; ALL for all)
// $levels        sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// Beside them, preference drift items (:PreferenceDrift, services/preferences/drift.py): one "edge" whose challenger
// and established sides are both the preference's version the item was opened on, and its `drift` figures; a
// tenant that never turned preference validation on has none, and its listing is the disputes' alone.
// returns: conflict_id, opened_at (its earliest edge's), edges (one map per dispute edge, in the order they were
//          opened: status, decision, opened_at, challenger, established), drift (null for a dispute)
CALL () {
MATCH (c:Fact)-[r:CONFLICTS_WITH]->(e:Fact)
WHERE c.tenant = $tenant
  AND ($conflict_id IS NULL OR r.conflict_id = $conflict_id)
  AND r.status <> 'carried'
  AND (NOT $open_only OR r.known_to IS NULL)
  // a conflict is shown only when the caller may see both sides, every established version it names included
  AND @visible(c, $levels) AND @visible(e, $levels)
  AND ('*' IN $levels OR NOT EXISTS { MATCH (c)-[other:CONFLICTS_WITH]->(held:Fact)
                                      WHERE other.conflict_id = r.conflict_id AND NOT @visible(held, $levels) })
WITH r, c, e, coalesce(r.opened_at, r.known_from) AS opened_at
ORDER BY opened_at, e.valid_from, e.version_id
WITH r.conflict_id AS conflict_id, min(opened_at) AS first_opened,
     collect({status: r.status, decision: r.decision, opened_at: opened_at,
              challenger: c {@fact_fields(c, null), disputed: false},
              established: e {@fact_fields(e, null), disputed: r.known_to IS NULL}}) AS edges
RETURN conflict_id, first_opened, edges, null AS drift
UNION ALL
MATCH (d:PreferenceDrift {tenant: $tenant})
WHERE ($conflict_id IS NULL OR d.conflict_id = $conflict_id) AND (NOT $open_only OR d.known_to IS NULL)
  AND @visible(d, $levels)
MATCH (p:Fact {version_id: d.version_id})
WHERE p.tenant = $tenant AND @visible(p, $levels)
RETURN d.conflict_id AS conflict_id, d.known_from AS first_opened,
       [{status: d.status, decision: d.decision, opened_at: d.known_from,
         challenger: p {@fact_fields(p, null), disputed: false},
         established: p {@fact_fields(p, null), disputed: false}}] AS edges,
       d {.fact_id, .short_mean, .long_mean, .threshold, .window} AS drift
}
WITH conflict_id, first_opened, edges, drift
WHERE $after_id IS NULL OR first_opened > $after_opened
   OR (first_opened = $after_opened AND conflict_id > $after_id)
RETURN conflict_id, first_opened AS opened_at, edges, drift
ORDER BY opened_at, conflict_id
LIMIT $limit
