"""Issue 9: a flag edge holds only what a read at a known point needs (state, known interval, the cause reference);
what every flag of one write shares (actor, reason, verification time, the cause lines, the roots) is on its
:StateChange node, written once per write."""

from __future__ import annotations


class _Q:  # raw queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_EDGES = _Q("MATCH (f:Fact {tenant: $tenant})-[g:FLAGGED]->(c:StateChange) "
            "RETURN f.fact_id AS fact_id, properties(g) AS edge, properties(c) AS change")


def rule(store, name, *, depends_on=None):
    return store.add_fact(name, "is", "rule", statement=f"rule {name}", depends_on=depends_on,
                          valid_from="2025-01-01")


def test_a_cascade_writes_its_shared_cause_once_on_the_state_change_and_per_flag_only_state_time_and_path(
        store, clock):
    # given p <- a <- b, and c resting on p
    p = rule(store, "p")
    a = rule(store, "a", depends_on=[p.fact_id])
    b = rule(store, "b", depends_on=[a.fact_id])
    c = rule(store, "c", depends_on=[p.fact_id])
    clock.at("2025-03-01")
    # when p is retracted
    [gone] = store.retract_fact(p.fact_id, reason="p was wrong")
    # then each flag edge carries its state, its known time and its cause reference only (its path; no index: the
    # state change's one cause line)
    rows = store._ctx.db.query(_EDGES, tenant=store.tenant)
    assert sorted(r["fact_id"] for r in rows) == sorted([a.fact_id, b.fact_id, c.fact_id])
    for r in rows:
        assert set(r["edge"]) == {"state", "known_from", "path"}, r["edge"]
        assert r["edge"]["state"] == "stale"
    paths = {r["fact_id"]: r["edge"]["path"] for r in rows}
    # (one text, as readers show it: migration 0024)
    assert paths[b.fact_id] == f"{p.fact_id} -> {a.fact_id} -> {b.fact_id}" and paths[c.fact_id] == f"{p.fact_id} -> {c.fact_id}"
    # and the one state change holds the actor, the reason, the cause line and its root
    [change] = {r["change"]["change_id"]: r["change"] for r in rows}.values()
    assert (change["actor"], change["reason"], change["roots"]) == ("cascade", "stale: lost all support", [p.fact_id])
    assert change["causes"] == [gone.cascade.fact(b.fact_id).cause.text()]
    # and every reader still sees the stale cause with its path
    [item] = [i for i in store.stale() if i.id == b.fact_id]
    assert item.cause == f"{change['causes'][0]}; path {p.fact_id} -> {a.fact_id} -> {b.fact_id}"
    assert store.history(b.fact_id)[0].stale_cause == item.cause


def test_a_reinforcement_keeps_its_verification_time_on_the_state_change(store, clock):
    # given a fact
    f = store.add_fact("Alice", "lives_in", "Paris", valid_from="2024-01-01")
    # when it is restated (a reinforcement flag, verified now)
    clock.at("2025-02-01")
    store.add_fact("Alice", "lives_in", "Paris", valid_from="2024-01-01")
    # then the edge holds state and known time, the node the verification time, and the read sees it
    rows = store._ctx.db.query(_EDGES, tenant=store.tenant)
    assert [set(r["edge"]) for r in rows] == [{"state", "known_from"}]
    assert rows[0]["change"]["verified_at"] is not None
    [now] = store.history(f.fact_id)
    assert now.state == "reinforced" and now.verified_at.year == 2025 and now.verified_at.month == 2
