"""Lifecycle timelines: state changes are flags (the version history stays), and deprecate / quarantine / release
are explicit acts with a reason and an actor, through the one transition table."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput, TransitionRefused


class _Q:  # raw queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_COUNTS = _Q("MATCH (n {tenant: $tenant}) WHERE n:Fact OR n:StateChange OR n:AuditEvent "
             "RETURN labels(n)[0] AS label, count(*) AS n")
_FLAGS = _Q("MATCH (f:Fact {tenant: $tenant})-[g:FLAGGED]->(c:StateChange) RETURN f.version_id AS version_id, "
            "g.state AS state, c.actor AS actor, c.reason AS reason, g.known_to IS NULL AS open")


def counts(store):
    return {r["label"]: r["n"] for r in store._ctx.db.query(_COUNTS, tenant=store.tenant)}


def served(store, **kw):
    return {f.fact_id for f in store.facts(**kw)}


def test_a_cascade_flags_the_dependent_version_instead_of_writing_a_new_one(store, clock):
    # given a rule resting on a premise
    clock.at("2025-01-01")
    p = store.add_fact("API v1", "reads", "legacy", statement="API v1 reads legacy", valid_from="2024-01-01")
    r = store.add_fact("legacy", "must_not", "be dropped", statement="Keep legacy", depends_on=[p.fact_id],
                       valid_from="2024-01-01")
    before = clock.at("2025-02-01")
    versions_before = counts(store)["Fact"]
    # when the premise is retracted
    clock.at("2025-03-01")
    report = store.retract_fact(p.fact_id, reason="it never did")[0].cascade
    # then the rule is stale by a flag on its one version: no new version, the report names that version
    assert [f.version_id for f in report.facts] == [r.version_id]
    assert counts(store)["Fact"] == versions_before
    assert [(v.version_id, v.state) for v in store.history(r.fact_id)] == [(r.version_id, "stale")]
    assert [i.version_id for i in store.stale() if i.id == r.fact_id] == [r.version_id]
    # and a read at the earlier known time still serves it, forever
    assert r.fact_id in served(store, known_at=before)
    assert r.fact_id not in served(store)
    # re-verified: the stale flag closes, an active one (verified now) opens; still the one version
    done = store.reverify(r.fact_id, outcome="holds", note="checked with the DBA")
    assert done.version_id == r.version_id and done.state == "active"
    assert [v.state for v in store.history(r.fact_id)] == ["active"] and r.fact_id in served(store, known_at=before)
    flags = store._ctx.db.query(_FLAGS, tenant=store.tenant)
    assert sorted((f["state"], f["open"]) for f in flags) == [("active", True), ("stale", False)]


def test_deprecate_sets_a_fact_aside_with_reason_and_actor_and_the_past_still_serves_it(store, clock):
    # given a served fact and a rule resting on it
    clock.at("2025-01-01")
    f = store.add_fact("Deploys", "happen_on", "Fridays", statement="We deploy on Fridays", valid_from="2024-01-01")
    rule = store.add_fact("Release train", "leaves_on", "Fridays", statement="The train leaves Fridays",
                          depends_on=[f.fact_id], valid_from="2024-01-01")
    before = clock.at("2025-02-01")
    # when it is deprecated
    clock.at("2025-03-01")
    out = store.deprecate(f.fact_id, reason="we moved to continuous delivery", actor="maria")
    # then it is no longer served, its one version says deprecated, and what rested on it went stale
    assert out.state == "deprecated" and out.version_id == f.version_id
    assert f.fact_id not in served(store)
    assert [v.state for v in store.history(f.fact_id)] == ["deprecated"]
    assert [x.fact_id for x in out.cascade.facts] == [rule.fact_id]
    # and the flag names who and why; the read at the earlier known time is unchanged
    flags = {x["version_id"]: x for x in store._ctx.db.query(_FLAGS, tenant=store.tenant) if x["state"] == "deprecated"}
    assert (flags[f.version_id]["actor"], flags[f.version_id]["reason"]) == ("maria", "we moved to continuous delivery")
    assert {f.fact_id, rule.fact_id} <= served(store, known_at=before)


def test_quarantine_of_a_source_sets_its_facts_aside_and_release_returns_them_to_candidate(store, clock):
    # given two facts cited from a suspicious document and one from another source
    clock.at("2025-01-01")
    bad = store.add_source("document", "Acme is owned by Zed; Zed lives in Oslo", title="leaked memo")
    good = store.add_source("document", "Bob lives in Rome", title="HR record")
    a = store.add_fact("Acme", "owned_by", "Zed", statement="Acme is owned by Zed", valid_from="2024-01-01")
    b = store.add_fact("Zed", "lives_in", "Oslo", statement="Zed lives in Oslo", valid_from="2024-01-01")
    c = store.add_fact("Bob", "lives_in", "Rome", statement="Bob lives in Rome", valid_from="2024-01-01")
    store.cite(a.fact_id, bad.source_id)
    store.cite(b.fact_id, bad.source_id)
    store.cite(c.fact_id, good.source_id)
    before = clock.at("2025-02-01")
    # when the source is quarantined
    clock.at("2025-03-01")
    moved = store.quarantine(bad.source_id, reason="memo of unknown origin", actor="security")
    # then its facts are set aside (not served, not deleted), the other source's fact is untouched
    assert sorted(x.fact_id for x in moved) == sorted([a.fact_id, b.fact_id])
    assert {x.state for x in moved} == {"quarantined"}
    assert served(store) & {a.fact_id, b.fact_id} == set() and c.fact_id in served(store)
    assert {a.fact_id, b.fact_id} <= served(store, states=["quarantined"])
    assert {a.fact_id, b.fact_id, c.fact_id} <= served(store, known_at=before)
    # when it is released: back to candidate (the table's way out), served again only once admitted
    clock.at("2025-04-01")
    back = store.release(bad.source_id, reason="memo verified with legal", actor="security")
    assert {x.state for x in back} == {"candidate"}
    assert a.fact_id not in served(store)
    assert store.admit(a.fact_id, by="legal").state == "active"
    assert a.fact_id in served(store) and b.fact_id not in served(store)


def test_a_refused_transition_names_both_states_and_writes_nothing(store, clock):
    # given a deprecated fact
    clock.at("2025-01-01")
    f = store.add_fact("Team", "uses", "Jenkins", statement="The team uses Jenkins", valid_from="2024-01-01")
    store.deprecate(f.fact_id, reason="moved to GitHub Actions", actor="ops")
    before = counts(store)
    # when someone quarantines it (deprecated -> quarantined is not in the table)
    with pytest.raises(TransitionRefused) as refused:
        store.quarantine(fact_id=f.fact_id, reason="suspicious", actor="security")
    # then the error names both states and nothing was written
    assert (refused.value.current, refused.value.target) == ("deprecated", "quarantined")
    assert counts(store) == before
    assert store.history(f.fact_id)[0].state == "deprecated"


def test_a_conflicted_fact_is_not_reinforced_by_a_restatement(store, clock):
    # given an established owner and a challenger kept as conflicted
    clock.at("2025-01-01")
    store.add_fact("Acct", "owned_by", "Alice", statement="Alice owns Acct", valid_from="2024-01-01")
    challenger = store.add_fact("Acct", "owned_by", "Bob", statement="Bob owns Acct", valid_from="2024-01-01")
    assert challenger.state == "conflicted"
    # when someone explicitly tries to deprecate-then-quarantine-style move it to reinforced: refused by the table
    from credo.services.core.flags import flag_states

    def work(w):
        flag_states(w, [(challenger, "reinforced", None)], kind="test")

    with pytest.raises(TransitionRefused):
        store._ctx.write(work)
    assert store.history(challenger.fact_id)[-1].state == "conflicted"


def test_lifecycle_acts_need_a_reason_an_actor_and_one_target(store):
    with pytest.raises(InvalidInput) as no_reason:
        store.deprecate("f_x", reason=" ", actor="ops")
    assert no_reason.value.field == "reason"
    with pytest.raises(InvalidInput):
        store.quarantine("s_x", fact_id="f_x", reason="r", actor="a")
    with pytest.raises(InvalidInput):
        store.release(reason="r", actor="a")


_SUMMARY_VERSIONS = _Q("MATCH (s:Summary {tenant: $tenant}) RETURN count(s) AS n")


def test_a_summary_going_stale_and_green_again_is_flagged_not_versioned(store, clock):
    # given a summary of a served fact
    clock.at("2025-01-01")
    f = store.add_fact("Deploys", "happen_on", "Mondays", statement="We deploy on Mondays", valid_from="2024-01-01")
    s = store.add_summary("deployment notes", derived_from=[f.fact_id])
    before = clock.at("2025-02-01")
    # when its input is quarantined, then released and admitted again
    clock.at("2025-03-01")
    store.quarantine(fact_id=f.fact_id, reason="unverified", actor="security")
    stale = store.summary(s.summary_id)
    # then the summary is stale by a flag on its one version, and the earlier read still shows it green
    assert (stale.state, stale.version_id) == ("stale", s.version_id)
    assert store.summary(s.summary_id, known_at=before).state == "active"
    assert store._ctx.db.query(_SUMMARY_VERSIONS, tenant=store.tenant)[0]["n"] == 1
    assert s.summary_id in {i.id for i in store.stale()}
