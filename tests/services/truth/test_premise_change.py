"""Issue 8 §1 timelines: a premise change (its content or its valid time) re-checks what rests on it."""

from __future__ import annotations

import pytest

from credo.services.adapters.summarizers import ListSummarizer


def served_ids(store, **kw):
    return {f.fact_id for f in store.facts(**kw)}


def rule(store, name, *, depends_on=None, valid_from="2025-01-01"):
    return store.add_fact(name, "is", "rule", statement=name, depends_on=depends_on, valid_from=valid_from)


def key_and_rule(store):
    key = store.add_fact("payments", "signing_key", "K1", statement="payments signs with key K1",
                         scope={"env": "production"}, valid_from="2024-06-01")
    derived = rule(store, "Rotate K1 before 2026", depends_on=[key.fact_id])
    return key, derived


@pytest.mark.parametrize("change, old, new", [
    ({"object": "K2"}, "payments signs with key K1", "payments signing_key K2"),
    ({"statement": "payments signs with key K2"}, "payments signs with key K1", "payments signs with key K2"),
    ({"scope": {"env": "staging"}}, "{'env': 'production'}", "{'env': 'staging'}"),
])
def test_correcting_a_premise_content_flags_its_dependents_with_old_and_new(store, clock, change, old, new):
    # given a rule derived from a key's value
    key, derived = key_and_rule(store)
    clock.at("2025-03-01")
    # when the key's content is corrected (the fact id stays believed)
    corrected = store.correct_fact(key.fact_id, **change)
    # then the rule is stale, with the old and new content and the path, and no longer served
    flag = corrected.cascade.fact(derived.fact_id)
    assert flag is not None and flag.path == [key.fact_id, derived.fact_id]
    assert flag.cause.change == "correction"
    assert flag.cause.text().startswith(f"premise corrected: {old!r} → {new!r}")
    assert derived.fact_id not in served_ids(store) and key.fact_id in served_ids(store, include_undated=True)
    [item] = store.stale()
    assert item.id == derived.fact_id and f"premise corrected: {old!r} → {new!r}" in item.cause
    assert f"path {key.fact_id} -> {derived.fact_id}" in item.cause


def test_correcting_only_a_premise_confidence_leaves_its_dependents_green(store, clock):
    key, derived = key_and_rule(store)
    clock.at("2025-03-01")
    corrected = store.correct_fact(key.fact_id, confidence=0.5)
    assert corrected.cascade.checked == [derived.fact_id] and corrected.cascade.facts == []
    assert derived.fact_id in served_ids(store) and store.stale() == []


def test_a_dependent_with_another_justification_survives_its_premise_correction(store, clock):
    key, derived = key_and_rule(store)
    policy = rule(store, "Keys rotate yearly")
    store.justify(derived.fact_id, premises=[policy.fact_id])
    clock.at("2025-03-01")
    corrected = store.correct_fact(key.fact_id, object="K2")
    assert corrected.cascade.facts == [] and derived.fact_id in served_ids(store)


def test_a_premise_content_correction_goes_on_transitively(store, clock):
    key, derived = key_and_rule(store)
    deeper = rule(store, "Schedule the K1 rotation", depends_on=[derived.fact_id])
    clock.at("2025-03-01")
    report = store.correct_fact(key.fact_id, object="K2").cascade
    assert [f.fact_id for f in report.facts] == [derived.fact_id, deeper.fact_id]
    assert report.fact(deeper.fact_id).path == [key.fact_id, derived.fact_id, deeper.fact_id]


def test_a_premise_ending_in_the_future_leaves_its_dependent_unsupported_from_that_day(store, clock):
    # given a rule resting on a premise
    p = store.add_fact("API v1", "status", "live", valid_from="2024-06-01")
    r = rule(store, "Keep customer_legacy", depends_on=[p.fact_id])
    clock.at("2025-03-01")
    # when the premise is corrected to end in the future
    ended = store.correct_fact(p.fact_id, valid_to="2025-06-01")
    before = clock.at("2025-03-02")
    # then the rule is still supported now and until that day, but not served at a later valid time
    assert ended.cascade.facts == [] and ended.cascade.checked == [r.fact_id]
    assert r.fact_id in served_ids(store) and r.fact_id in served_ids(store, valid_at="2025-05-31")
    assert r.fact_id not in served_ids(store, valid_at="2025-06-01")
    assert r.fact_id not in served_ids(store, valid_at="2025-07-01")
    assert [f.fact_id for f in store.facts(valid_at="2025-07-01", states=["active"])] == []
    # and once the day is reached, nothing serves it and maintain() flags it with the cause
    clock.at("2025-06-02")
    assert r.fact_id not in served_ids(store)
    report = store.maintain()
    flag = report.fact(r.fact_id)
    assert flag is not None and flag.path == [p.fact_id, r.fact_id] and "valid time ended" in flag.cause.change
    [item] = store.stale()
    assert item.id == r.fact_id and "valid time ended at 2025-06-01" in item.cause
    # maintain is idempotent, and the read at an earlier known time is unchanged
    again = store.maintain()
    assert again.facts == []
    assert r.fact_id in served_ids(store, valid_at="2025-05-01", known_at=before)
    assert r.fact_id not in served_ids(store, valid_at="2025-07-01", known_at=before)


def test_a_dependent_past_its_premise_end_is_not_served_through_a_chain(store, clock):
    p = store.add_fact("API v1", "status", "live", valid_from="2024-06-01")
    r = rule(store, "Keep customer_legacy", depends_on=[p.fact_id])
    top = rule(store, "Back up customer_legacy nightly", depends_on=[r.fact_id])
    keeper = rule(store, "Keep backups for audits")
    kept = rule(store, "Keep the backup bucket", depends_on=[r.fact_id])
    store.justify(kept.fact_id, premises=[keeper.fact_id])
    clock.at("2025-03-01")
    store.end_fact(p.fact_id, at="2025-06-01")
    later = served_ids(store, valid_at="2025-07-01")
    assert r.fact_id not in later and top.fact_id not in later
    assert {kept.fact_id, keeper.fact_id} <= later
    assert {r.fact_id, top.fact_id, kept.fact_id} <= served_ids(store, valid_at="2025-05-01")


def test_maintain_before_any_premise_ends_flags_nothing(store, clock):
    p = store.add_fact("API v1", "status", "live", valid_from="2024-06-01", valid_to="2025-06-01")
    r = rule(store, "Keep customer_legacy", depends_on=[p.fact_id])
    clock.at("2025-03-01")
    assert store.maintain().facts == []
    assert r.fact_id in served_ids(store) and store.stale() == []


def test_rebuilding_a_summary_whose_inputs_are_all_stale_keeps_it_unserved_with_the_reason(store, clock):
    class Counting(ListSummarizer):
        calls = 0

        def summarize(self, topic, inputs):
            Counting.calls += 1
            return super().summarize(topic, inputs)

    # given a summary of two rules resting on one premise
    p = store.add_fact("API v1", "status", "live", valid_from="2024-06-01")
    r1 = rule(store, "Keep customer_legacy", depends_on=[p.fact_id])
    r2 = rule(store, "Back up customer_legacy", depends_on=[p.fact_id])
    s = store.add_summary("notes", derived_from=[r1.fact_id, r2.fact_id], summarizer=Counting())
    clock.at("2025-03-01")
    store.retract_fact(p.fact_id, reason="v1 was never live")
    # when it is rebuilt while every input is stale
    clock.at("2025-03-02")
    rebuilt = store.rebuild(s.summary_id, summarizer=Counting())
    # then no empty summary is served: it stays stale, saying why, and the summarizer did not run on nothing
    assert rebuilt.state == "stale" and "no input is served" in rebuilt.stale_cause
    assert Counting.calls == 1
    assert store.summaries() == []
    assert [i.cause for i in store.stale() if i.id == s.summary_id] == [rebuilt.stale_cause]
    # and once its inputs are gone for good it still is not served
    store.reverify(r1.fact_id, outcome="retracted", note="wrong")
    store.reverify(r2.fact_id, outcome="retracted", note="wrong")
    again = store.rebuild(s.summary_id, summarizer=Counting())
    assert again.state == "stale" and store.summaries() == [] and Counting.calls == 1


def test_rebuilding_a_served_summary_whose_inputs_are_gone_makes_it_stale(store, clock):
    a = rule(store, "alpha")
    s = store.add_summary("notes", derived_from=[a.fact_id])
    clock.at("2025-03-01")
    store.retract_fact(a.fact_id, reason="wrong")
    [flagged] = store.summaries(states=["stale"])
    rebuilt = store.rebuild(flagged.summary_id, summarizer=ListSummarizer())
    assert rebuilt.state == "stale" and rebuilt.text == s.text and store.summaries() == []
