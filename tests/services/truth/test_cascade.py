"""Issue 5 acceptance timelines: premises change, and what rested on them is flagged inside the same write."""

from __future__ import annotations

import pytest

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")


PROD = {"env": "production"}
STAGING = {"env": "staging"}


def served_ids(store, **kw):
    return {f.fact_id for f in store.facts(**kw)}


def rule(store, name, *, depends_on=None, scope=None):
    return store.add_fact(name, "is", "rule", statement=name, scope=scope, depends_on=depends_on,
                          valid_from="2025-01-01")


def test_migration_incident_timeline(store, clock):
    from credo.services.adapters.summarizers import ListSummarizer

    # (a) a hedged human guess, quoted through the write gate, is kept as a hypothesis
    clock.at("2025-02-01")
    store.ingest_messages("db-chat", [
        {"index": 0, "role": "assistant", "origin": "agent", "author": "assistant", "text": "Can we drop it?",
         "at": "2025-02-01T09:00:00+00:00"},
        {"index": 1, "role": "user", "origin": "human_input", "author": "raj",
         "text": "I guess API v1 still uses customer_legacy, not confirmed", "at": "2025-02-01T09:01:00+00:00"},
    ])
    p = store.turn("db-chat").remember("I guess API v1 still uses customer_legacy, not confirmed",
                                       "API v1 clients still read customer_legacy", subject="API v1 clients",
                                       predicate="read_column", object="customer_legacy", scope=PROD,
                                       valid_from="2025-01-01")
    assert p.epistemic == "hypothesis" and p.evidence == "stated"
    # (b) a dependency check (a tool result) confirms it
    clock.at("2025-02-02")
    check = store.add_source("tool_result", "dependency check: 3 callers of customer_legacy in api-v1",
                             title="dependency check")
    p = store.reverify(p.fact_id, outcome="holds", evidence=check.source_id)
    assert p.epistemic == "confirmed" and p.state == "active"
    assert check.source_id in {s.source_id for s in store.why(p.fact_id).sources}
    # (c) R rests on P; S summarises R and two unrelated rules; a staging rule rests on a staging premise
    clock.at("2025-02-03")
    r = store.add_fact("customer_legacy", "must_not", "be dropped", statement="Don't drop customer_legacy in production",
                       scope=PROD, depends_on=[p.fact_id], valid_from="2025-02-01")
    u1 = rule(store, "Deploy on weekdays only", scope=PROD)
    u2 = rule(store, "Run migrations behind a feature flag", scope=PROD)
    p_stage = store.add_fact("API v1 clients", "read_column", "customer_legacy", statement="staging v1 clients read it",
                             scope=STAGING, valid_from="2025-01-01")
    r_stage = rule(store, "Keep customer_legacy in staging", scope=STAGING, depends_on=[p_stage.fact_id])
    s = store.add_summary("deployment notes", derived_from=[r.fact_id, u1.fact_id, u2.fact_id], summarizer=ListSummarizer())
    assert "Don't drop customer_legacy in production" in s.text
    before = clock.at("2025-03-01")
    # (d) months later: all API v1 clients are retired (a succession of P)
    clock.at("2025-07-01")
    successor = store.succeed_fact(p.fact_id, object="none (all clients retired)", at="2025-06-15",
                                   statement="All API v1 clients are retired")
    report = successor.cascade
    assert report is not None
    assert [f.fact_id for f in report.facts] == [r.fact_id]
    assert report.fact(r.fact_id).cause.premise_fact_id == p.fact_id
    assert report.fact(r.fact_id).cause.change == "succession"
    assert report.fact(r.fact_id).path == [p.fact_id, r.fact_id]
    assert [x.summary_id for x in report.summaries] == [s.summary_id]
    assert r.fact_id not in served_ids(store)
    assert [f.state for f in store.facts("customer_legacy", states=["stale"])] == ["stale"]
    assert store.summaries() == [] and [x.state for x in store.summaries(states=["stale"])] == ["stale"]
    assert {u1.fact_id, u2.fact_id, r_stage.fact_id, p_stage.fact_id} <= served_ids(store)
    assert [i.id for i in store.stale()] == [r.fact_id, s.summary_id]
    # (e) R lapsed: history with its reason; nothing claims dropping the column is now safe
    clock.at("2025-07-02")
    lapsed = store.reverify(r.fact_id, outcome="lapsed", note="all API v1 clients are retired")
    assert lapsed.state == "deprecated" and lapsed.statement == "Don't drop customer_legacy in production"
    assert lapsed.lapse_reason == "no longer applies because all API v1 clients are retired"
    assert store.history(r.fact_id)[-1].lapse_reason == lapsed.lapse_reason  # kept in the graph, not just returned
    assert "lapsed: no longer applies because all API v1 clients are retired" in store.why(r.fact_id).text()
    assert store.facts("customer_legacy") == []
    assert not any("safe" in f.statement.lower() for f in store.facts(include_undated=True))
    assert [f.state for f in store.chain("customer_legacy", "must_not")] == ["deprecated"]
    # (f) rebuilding S drops R's restriction and keeps the other two rules
    rebuilt = store.rebuild(s.summary_id, summarizer=ListSummarizer())
    assert rebuilt.state == "active" and "customer_legacy" not in rebuilt.text
    assert "Deploy on weekdays only" in rebuilt.text and "Run migrations behind a feature flag" in rebuilt.text
    assert store.stale() == []
    # (g) as of a known time before (d), R, P and S read exactly as they did then
    then = {f.fact_id: f for f in store.facts(known_at=before, scope=PROD)}
    assert then[r.fact_id].state == "active" and then[p.fact_id].epistemic == "confirmed"
    assert then[p.fact_id].valid_to is None
    [s_then] = store.summaries(known_at=before)
    assert s_then.version_id == s.version_id and s_then.text == s.text


def test_alternative_support_keeps_g_and_why_names_the_surviving_justification(store, clock):
    a, b, d, e = (rule(store, n) for n in ("a", "b", "d", "e"))
    f = rule(store, "f", depends_on=[a.fact_id, b.fact_id])
    g = rule(store, "g", depends_on=[a.fact_id, e.fact_id])
    de = store.justify(g.fact_id, premises=[d.fact_id, e.fact_id])
    clock.at("2025-03-01")
    [gone] = store.retract_fact(a.fact_id, reason="a was never true")
    assert [x.fact_id for x in gone.cascade.facts] == [f.fact_id]
    assert f.fact_id not in served_ids(store) and g.fact_id in served_ids(store)
    holding = [j for j in store.justifications(g.fact_id) if j.holds]
    assert [j.justification_id for j in holding] == [de]
    assert {p.fact_id for p in holding[0].premises} == {d.fact_id, e.fact_id}
    tree = store.why(g.fact_id)
    assert [j.justification_id for j in tree.justifications if j.holds] == [de]
    assert {p.fact_id for p in next(j for j in tree.justifications if j.holds).premises} == {d.fact_id, e.fact_id}


def test_a_cycle_gives_no_support_once_its_only_outside_premise_goes(store, clock):
    x = rule(store, "x")
    c = rule(store, "c", depends_on=[x.fact_id])
    d = rule(store, "d", depends_on=[c.fact_id])
    store.justify(c.fact_id, premises=[d.fact_id])
    clock.at("2025-03-01")
    [gone] = store.retract_fact(x.fact_id, reason="x was wrong")
    flagged = {f.fact_id: f for f in gone.cascade.facts}
    assert set(flagged) == {c.fact_id, d.fact_id}
    assert flagged[c.fact_id].path == [x.fact_id, c.fact_id] and flagged[d.fact_id].depth == 2
    assert served_ids(store) == set()


def test_chain_of_depth_six_and_a_diamond_are_each_flagged_once_with_the_shortest_path(store, clock):
    p = rule(store, "p")
    chain, prev = [], p
    for i in range(1, 7):
        prev = rule(store, f"c{i}", depends_on=[prev.fact_id])
        chain.append(prev)
    left = rule(store, "left", depends_on=[p.fact_id])
    right = rule(store, "right", depends_on=[chain[2].fact_id])
    join = rule(store, "join", depends_on=[left.fact_id, right.fact_id])
    keeper = rule(store, "keeper")
    survivor = rule(store, "survivor", depends_on=[left.fact_id])
    store.justify(survivor.fact_id, premises=[keeper.fact_id])
    clock.at("2025-03-01")
    report = store.end_fact(p.fact_id, at="2025-02-01").cascade
    ids = [f.fact_id for f in report.facts]
    assert len(ids) == len(set(ids)) == 9
    depth = {f.fact_id: f.depth for f in report.facts}
    assert [depth[c.fact_id] for c in chain] == [1, 2, 3, 4, 5, 6]
    assert report.fact(join.fact_id).path == [p.fact_id, left.fact_id, join.fact_id]
    assert report.fact(right.fact_id).depth == 4
    assert survivor.fact_id not in ids and survivor.fact_id in served_ids(store)


def test_a_write_whose_cascade_fails_leaves_neither_the_write_nor_any_flag(store, clock, monkeypatch):
    from credo.services.truth import cascade as cascade_service

    p = rule(store, "p")
    r = rule(store, "r", depends_on=[p.fact_id])
    s = store.add_summary("notes", derived_from=[r.fact_id])
    clock.at("2025-03-01")

    def broken(*args, **kwargs):
        raise RuntimeError("summary check failed")

    monkeypatch.setattr(cascade_service, "_recheck_summaries", broken)
    with pytest.raises(RuntimeError):
        store.retract_fact(p.fact_id, reason="wrong")
    monkeypatch.undo()
    assert served_ids(store) == {p.fact_id, r.fact_id}
    assert [v.known_to for v in store.history(p.fact_id)] == [None]
    assert store.stale() == [] and [x.summary_id for x in store.summaries()] == [s.summary_id]


def test_correcting_a_premise_valid_time_rechecks_dependents_and_keeps_older_reads(store, clock):
    p = store.add_fact("API v1", "status", "live", valid_from="2024-06-01")
    r = rule(store, "r", depends_on=[p.fact_id])
    before = clock.at("2025-02-01")
    clock.at("2025-03-01")
    moved = store.correct_fact(p.fact_id, valid_from="2024-01-01")
    assert moved.cascade.checked == [r.fact_id] and moved.cascade.facts == []
    assert r.fact_id in served_ids(store)
    [old] = store.facts("API v1", "status", known_at=before)
    assert old.valid_from.year == 2024 and old.valid_from.month == 6
    clock.at("2025-04-01")
    ended = store.correct_fact(p.fact_id, valid_to="2025-03-15")
    assert [f.fact_id for f in ended.cascade.facts] == [r.fact_id]
    assert r.fact_id in served_ids(store, known_at=before)
