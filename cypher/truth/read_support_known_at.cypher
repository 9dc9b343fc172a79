// The read-time support view of facts at a known time: every version of the given facts believed then, with its
// state and valid interval and the premises of its DEPENDS_ON edges believed then (no other fact fields).
// clearance: not applied: truth maintenance judges every version, whatever the writer's clearance; nothing it reads
//   is served (a write's report is cut to the writer's clearance: services/core/clearance.py); support is the same for
//   every caller
// $tenant    tenant id
// $fact_ids  fact ids
// $known_at  known-time point (far future = believed now)
// returns: fact_id, version_id, state, statement, valid_from, valid_to (ISO text or null),
//          premises (list of [justification, premise fact id])
UNWIND $fact_ids AS id
MATCH (f:Fact {fact_id: id})
WHERE f.tenant = $tenant AND @believed_at(f, $known_at)
RETURN f.fact_id AS fact_id, f.version_id AS version_id, @state_at(f, $known_at) AS state, f.statement AS statement,
       toString(f.valid_from) AS valid_from, toString(f.valid_to) AS valid_to,
       [(f)-[d:DEPENDS_ON]->(p:Fact)
        WHERE @believed_at(d, $known_at)
        | [d.justification, p.fact_id]] AS premises
