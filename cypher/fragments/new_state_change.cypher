// Create the :StateChange node VERSION of a write that flags versions, known from POINT (the write's $known): what
// every flag of the write shares, from the statement's $change map (kind, actor, reason, verification time, the
// cause lines and the roots they name); its FLAGGED edges (flag_version.cypher) hold the rest.
CREATE (VERSION:StateChange {tenant: $tenant, change_id: $change.change_id, kind: $change.kind, actor: $change.actor,
                             reason: $change.reason, verified_at: $change.verified_at, causes: $change.causes,
                             roots: $change.roots, at: POINT})
