"""Migration 0007: stale / re-verified / reinforced versions written the old way (a new version per state change)
become state flags, and every as-of read gives the same answer before and after, at every known time."""

from __future__ import annotations

from datetime import timedelta

from credo.ops.migrate_flags import convert_state_versions


class _Q:  # raw queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


# the pre-issue-9 restate query (cypher/restate_fact_versions.cypher as it was): close a version and write a copy
# in another state, edges carried
_OLD_RESTATE = _Q("""
UNWIND $rows AS row
MATCH (old:Fact {version_id: row.old_id})
WHERE old.known_to IS NULL
CREATE (new:Fact)
SET new = old {.*, version_id: row.new_id, state: $state, known_from: $known, stale_cause: row.cause,
               verified_at: coalesce(row.verified_at, old.verified_at)}
SET old.known_to = $known, old.ended_by = 'state_change', old.end_reason = $reason
WITH old, new
CALL (old) { MATCH (old)-[r:ABOUT]->() WHERE r.known_to IS NULL SET r.known_to = $known }
CALL (new) { MATCH (s:Entity {entity_id: new.subject_id}) CREATE (new)-[:ABOUT {role: 'subject', known_from: $known}]->(s) }
CALL (new) { MATCH (o:Entity {entity_id: new.object_id}) CREATE (new)-[:ABOUT {role: 'object', known_from: $known}]->(o) }
CALL (old, new) { MATCH (old)-[r:SOURCED_FROM]->(s) WHERE r.known_to IS NULL
                  CREATE (new)-[c:SOURCED_FROM]->(s) SET c = properties(r), c.known_from = $known }
CALL (old, new) { MATCH (old)-[r:DEPENDS_ON]->(p) WHERE r.known_to IS NULL
                  CREATE (new)-[c:DEPENDS_ON]->(p) SET c = properties(r), c.known_from = $known }
RETURN collect(old.version_id) AS moved
""")
_CURRENT = _Q("MATCH (f:Fact {tenant: $tenant, fact_id: $fact_id}) WHERE f.known_to IS NULL RETURN f.version_id AS v")
_VERSIONS = _Q("MATCH (f:Fact {tenant: $tenant}) RETURN count(f) AS n")
_FLAGS = _Q("MATCH (:Fact {tenant: $tenant})-[g:FLAGGED]->(:StateChange) RETURN count(g) AS n")


def _old_state_change(store, clock, fact_id, state, reason, cause=None, verified=False):
    """Write a state change the way the code before issue 9 did (a new version), at the next clock tick."""
    db = store._ctx.db
    known = clock()
    [row] = db.query(_CURRENT, tenant=store.tenant, fact_id=fact_id)
    db.query(_OLD_RESTATE, write=True, known=known, state=state, reason=reason,
             rows=[{"old_id": row["v"], "new_id": f"v_old{known.timestamp():.0f}{state}_{store.tenant}",
                    "cause": cause, "verified_at": known if verified else None}])
    return known


def _answers(store, points, fact_ids):
    """Every as-of answer that could change: facts in any state, what is served, and stale() at each point."""
    states = ["active", "reinforced", "stale", "candidate", "deprecated"]
    seen = {}
    for at in points:
        listed = store.facts(known_at=at, states=states)
        seen[("facts", at)] = sorted((f.fact_id, f.state, f.stale_cause, f.verified_at, f.statement)
                                     for f in listed if f.fact_id in fact_ids)
        seen[("served", at)] = sorted(f.fact_id for f in store.facts(known_at=at) if f.fact_id in fact_ids)
        seen[("why", at)] = sorted(s.source_id for s in store.why(fact_ids[1], known_at=at).sources)
    seen["stale"] = sorted((i.id, i.cause) for i in store.stale())
    return seen


def test_old_state_versions_become_flags_and_every_known_time_reads_the_same(store, clock):
    # given a premise, a rule resting on it (cited from a document), and old-shape state changes of the rule:
    # stale (the cascade), re-verified (holds), reinforced
    clock.at("2025-01-01")
    doc = store.add_source("document", "Keep legacy until v1 is gone", title="runbook")
    p = store.add_fact("API v1", "reads", "legacy", statement="API v1 reads legacy", valid_from="2024-01-01")
    r = store.add_fact("legacy", "must_not", "be dropped", statement="Keep legacy", depends_on=[p.fact_id],
                       valid_from="2024-01-01")
    store.cite(r.fact_id, doc.source_id)
    t0 = clock.at("2025-02-01")
    clock.at("2025-03-01")
    t1 = _old_state_change(store, clock, r.fact_id, "stale", "stale: lost all support", cause="premise changed")
    clock.at("2025-04-01")
    t2 = _old_state_change(store, clock, r.fact_id, "active", "re-verified: holds", verified=True)
    clock.at("2025-05-01")
    t3 = _old_state_change(store, clock, r.fact_id, "reinforced", "reinforced by a restatement", verified=True)
    # a rule written later rests on the rule (its DEPENDS_ON edge points at the newest old-shape version)
    clock.at("2025-06-01")
    d = store.add_fact("schema", "keeps", "legacy", statement="Schema keeps legacy", depends_on=[r.fact_id],
                       valid_from="2024-01-01")
    now = clock.at("2025-07-01")
    points = [t0, t1, t1 + timedelta(seconds=1), t2, t3, now]
    ids = [p.fact_id, r.fact_id, d.fact_id]
    before = _answers(store, points, ids)
    state_of = {at: {row[0]: row[1] for row in before[("facts", at)]} for at in (t1, t3)}  # ids sort at random
    assert state_of[t1][r.fact_id] == "stale" and state_of[t3][r.fact_id] == "reinforced"
    versions = store._ctx.db.query(_VERSIONS, tenant=store.tenant)[0]["n"]
    # when the migration's data step runs
    folded = convert_state_versions(store._ctx.db)
    # then the three state-only versions became three flags on the rule's one version
    assert folded >= 3
    assert store._ctx.db.query(_VERSIONS, tenant=store.tenant)[0]["n"] == versions - 3
    assert store._ctx.db.query(_FLAGS, tenant=store.tenant)[0]["n"] == 3
    assert [v.state for v in store.history(r.fact_id)] == ["reinforced"]
    # and every read at every known time gives the same answer as before
    assert _answers(store, points, ids) == before
    # and the later rule still rests on it: retracting the premise flags both as before
    report = store.retract_fact(p.fact_id, reason="v1 is gone")[0].cascade
    assert {f.fact_id for f in report.facts} == {r.fact_id, d.fact_id}
    # a second run finds nothing left to fold
    assert convert_state_versions(store._ctx.db) == 0
