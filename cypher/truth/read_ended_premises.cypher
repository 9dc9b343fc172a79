// Premises whose valid time has ended by a point while a served current dependent still rests on them: what
// `maintain` hands to the cascade.
// clearance: not applied: truth maintenance judges every version, whatever the writer's clearance; nothing it reads
//   is served (a write's report is cut to the writer's clearance: services/core/clearance.py)
// $tenant  tenant id
// $at      the point (now)
// $states  the served states
// returns: fact (the premise's current version)
MATCH (p:Fact)
WHERE p.tenant = $tenant AND @state_at(p, null) IN $states AND p.known_to IS NULL
  AND p.valid_to IS NOT NULL AND p.valid_to <= $at
  AND EXISTS {
    MATCH (:Fact {fact_id: p.fact_id})<-[d:DEPENDS_ON]-(x:Fact)
    WHERE d.known_to IS NULL AND x.known_to IS NULL AND x.tenant = $tenant AND @state_at(x, null) IN $states
  }
RETURN p {@fact_fields(p, null), disputed: false} AS fact
ORDER BY p.fact_id
