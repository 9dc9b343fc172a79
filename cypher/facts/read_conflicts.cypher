// Conflicts of a tenant, optionally only open ones or one by id. Edges left behind when a dispute was carried to a
// newer version of either side (status 'carried') are history of the same conflict, not conflicts of their own.
// $tenant       tenant id
// $conflict_id  conflict id or null
// $open_only    only conflicts still awaiting a decision
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: conflict_id, status, decision, opened_at, challenger, established
MATCH (c:Fact)-[r:CONFLICTS_WITH]->(e:Fact)
WHERE c.tenant = $tenant
  AND ($conflict_id IS NULL OR r.conflict_id = $conflict_id)
  AND r.status <> 'carried'
  AND (NOT $open_only OR r.known_to IS NULL)
  // a conflict is shown only when the caller may see both sides, every established version it names included
  AND @visible(c, $levels) AND @visible(e, $levels)
  AND ('*' IN $levels OR NOT EXISTS { MATCH (c)-[other:CONFLICTS_WITH]->(held:Fact)
                                      WHERE other.conflict_id = r.conflict_id AND NOT @visible(held, $levels) })
RETURN r.conflict_id AS conflict_id, r.status AS status, r.decision AS decision,
       coalesce(r.opened_at, r.known_from) AS opened_at,
       c {@fact_fields(c, null), disputed: false} AS challenger,
       e {@fact_fields(e, null), disputed: r.known_to IS NULL} AS established
ORDER BY opened_at
