"""Migration 0012: flag edges written in the old shape (the whole cause text, actor, reason and previous state on
every edge) get the slim shape, and every read at every known time gives the same state, stale cause and
verification time as the old shape said."""

from __future__ import annotations

from credo.ops.migrate_flag_edges import slim_flag_edges


class _Q:  # raw queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


# the flag write as it was before the slim shape (cypher/core/create_state_flags.cypher then)
_OLD_FLAGS = _Q("""
CREATE (c:StateChange {tenant: $tenant, change_id: $change.change_id, kind: $change.kind, actor: $change.actor,
                       reason: $change.reason, at: $known})
WITH c
UNWIND $rows AS row
MATCH (v:Fact {version_id: row.version_id})
WHERE v.tenant = $tenant AND v.known_to IS NULL
CALL (v) {
  MATCH (v)-[open:FLAGGED]->(:StateChange)
  WHERE open.known_to IS NULL
  SET open.known_to = $known
}
CREATE (v)-[:FLAGGED {state: row.state, from_state: row.from_state, cause: row.cause, actor: $change.actor,
                      reason: $change.reason, verified_at: row.verified_at, known_from: $known}]->(c)
RETURN collect(v.version_id) AS flagged
""")
_EDGES = _Q("MATCH (f:Fact {tenant: $tenant})-[g:FLAGGED]->(c:StateChange) "
            "RETURN f.fact_id AS fact_id, properties(g) AS edge, properties(c) AS change")


def _old_flags(store, clock, kind, actor, reason, rows):
    known = clock()
    store._ctx.db.query(_OLD_FLAGS, write=True, tenant=store.tenant, known=known,
                        change={"change_id": f"sc_old_{kind}_{known.timestamp():.0f}", "kind": kind, "actor": actor,
                                "reason": reason}, rows=rows)
    return known


def test_old_flag_edges_get_the_slim_shape_and_every_known_time_reads_the_same(store, clock):
    # given a premise p with dependents a <- b written by the old flag write: a cascade (one cause line, a path per
    # dependent), then a re-verification of a (verified then), and a deprecation of b by maria
    clock.at("2025-01-01")
    p = store.add_fact("API v1", "reads", "legacy", statement="API v1 reads legacy", valid_from="2024-01-01")
    a = store.add_fact("legacy", "must_not", "be dropped", statement="Keep legacy", valid_from="2024-01-01")
    b = store.add_fact("schema", "keeps", "legacy", statement="Schema keeps legacy", valid_from="2024-01-01")
    line = f"premise {p.fact_id} ('API v1 reads legacy') stopped being believed: retraction at 2025-03-01"
    clock.at("2025-03-01")
    t1 = _old_flags(store, clock, "cascade", "cascade", "stale: lost all support", [
        {"version_id": a.version_id, "state": "stale", "from_state": "active", "verified_at": None,
         "cause": f"{line}; path {p.fact_id} -> {a.fact_id}"},
        {"version_id": b.version_id, "state": "stale", "from_state": "active", "verified_at": None,
         "cause": f"{line}; path {p.fact_id} -> {a.fact_id} -> {b.fact_id}"}])
    verified = clock.at("2025-04-01")
    t2 = _old_flags(store, clock, "reverify", None, "re-verified: holds", [
        {"version_id": a.version_id, "state": "active", "from_state": "stale", "verified_at": verified,
         "cause": None}])
    clock.at("2025-05-01")
    t3 = _old_flags(store, clock, "deprecate", "maria", "we moved on", [
        {"version_id": b.version_id, "state": "deprecated", "from_state": "stale", "verified_at": None,
         "cause": None}])
    # when the migration's data step runs
    converted = slim_flag_edges(store._ctx.db)
    # then the four edges have the slim shape, their shared parts on their state changes
    assert converted >= 4
    edges = store._ctx.db.query(_EDGES, tenant=store.tenant)
    assert all("from_state" not in e["edge"] and "actor" not in e["edge"] and "reason" not in e["edge"]
               for e in edges), edges
    [cascade] = {e["change"]["change_id"]: e["change"] for e in edges if e["change"]["kind"] == "cascade"}.values()
    assert cascade["causes"] == [line] and cascade["roots"] == [p.fact_id]
    # and every read at every known time says what the old shape said
    states = ["active", "stale", "deprecated"]

    def at(point):
        return {f.fact_id: (f.state, f.stale_cause, f.verified_at) for f in store.facts(known_at=point, states=states)
                if f.fact_id in (a.fact_id, b.fact_id)}

    assert at(t1) == {a.fact_id: ("stale", f"{line}; path {p.fact_id} -> {a.fact_id}", a.verified_at),
                      b.fact_id: ("stale", f"{line}; path {p.fact_id} -> {a.fact_id} -> {b.fact_id}", b.verified_at)}
    assert at(t2)[a.fact_id] == ("active", None, verified) and at(t3)[b.fact_id] == ("deprecated", None, b.verified_at)
    flags = {e["fact_id"] + e["edge"]["state"]: e for e in edges}
    assert flags[b.fact_id + "deprecated"]["change"]["actor"] == "maria"
    # and a second run finds nothing left to convert
    assert slim_flag_edges(store._ctx.db) == 0
