"""Drift of a preference on a real Neo4j (DESIGN §12): when the short-term view leaves the long-term one past the
threshold, exactly one item opens in the conflicts queue and one audit event is written; the fact is untouched, and a
person settles the item."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput, NotCurrent
from credo.services.preferences.rules import DRIFT_THRESHOLD, DRIFT_WINDOW


def _state(store, fact_id):
    """What a reader sees of the fact: its versions (state, epistemic, flags) and its served answer."""
    return ([v.model_dump(mode="json") for v in store.history(fact_id)],
            store.why(fact_id).model_dump(mode="json"))


def test_a_drift_opens_exactly_one_queue_item_and_an_audit_event_and_changes_nothing_of_the_fact(store, preference):
    # given a preference accepted ten times
    for _ in range(10):
        assert store.preference_outcome(preference.fact_id, "accepted").drift is None
    before = _state(store, preference.fact_id)
    # when it is rejected again and again
    answers = [store.preference_outcome(preference.fact_id, "rejected") for _ in range(DRIFT_WINDOW + 2)]
    # then the short-term view leaves the long-term one and one item opens, and stays the one item
    opened = [a.drift for a in answers]
    first = next(i for i, d in enumerate(opened) if d is not None)
    assert first > 0 and len({d for d in opened[first:]}) == 1 and opened[first].startswith("pd_")
    [item] = store.conflicts()
    assert item.conflict_id == opened[first] and item.status == "open" and item.drift is not None
    assert item.drift.fact_id == preference.fact_id and item.drift.threshold == DRIFT_THRESHOLD
    assert abs(item.drift.short_mean - item.drift.long_mean) > DRIFT_THRESHOLD
    assert item.challenger.fact_id == item.established.fact_id == preference.fact_id
    [event] = store.audit(operation="preference_drift").items
    assert event.subject_id == preference.fact_id and event.detail["conflict_id"] == item.conflict_id
    # and the fact's versions, state, epistemic status and served answer are what they were
    assert _state(store, preference.fact_id) == before
    assert store.preference(preference.fact_id).drift == item.conflict_id


def test_a_person_settles_the_drift_item_and_the_preference_stands(store, preference):
    for outcome in ["accepted"] * 10 + ["rejected"] * DRIFT_WINDOW:
        store.preference_outcome(preference.fact_id, outcome)
    [item] = store.conflicts()
    before = _state(store, preference.fact_id)
    with pytest.raises(InvalidInput) as refused:
        store.resolve_conflict(item.conflict_id, decision="correction")
    assert refused.value.field == "decision"
    served = store.resolve_conflict(item.conflict_id, decision="reject", reason="still prefers it, busy week")
    assert served.fact_id == preference.fact_id and served.version_id == preference.version_id
    assert store.conflicts() == []
    [settled] = store.conflicts(include_resolved=True)
    assert (settled.status, settled.decision) == ("resolved", "reject")
    assert _state(store, preference.fact_id) == before
    assert store.preference(preference.fact_id).drift is None
    with pytest.raises(NotCurrent):
        store.resolve_conflict(item.conflict_id, decision="reject")
    [event] = [e for e in store.audit(operation="resolve_conflict").items]
    assert event.detail["kind"] == "preference_drift" and event.detail["conflict_id"] == item.conflict_id


def test_a_short_run_before_enough_outcomes_opens_nothing(store, preference):
    for outcome in ["accepted"] * 3 + ["rejected"] * DRIFT_WINDOW:
        assert store.preference_outcome(preference.fact_id, outcome).drift is None
    assert store.conflicts() == [] and store.audit(operation="preference_drift").items == []


def test_disputes_and_drift_items_share_the_queue_in_the_order_they_opened(store, preference, clock):
    from credo.schema.facts import Conflict

    store.define_predicate("based_in", cardinality="single")
    store.add_fact("alice", "based_in", "Berlin", valid_from="2025-01-01")
    clock.at("2025-06-05T10:00:00+00:00")
    store.add_fact("alice", "based_in", "Paris", valid_from="2025-01-01")
    clock.at("2025-06-06T10:00:00+00:00")
    for outcome in ["accepted"] * 10 + ["rejected"] * DRIFT_WINDOW:
        store.preference_outcome(preference.fact_id, outcome)
    dispute, drift = store.conflicts()
    assert dispute.drift is None and drift.drift is not None
    # a dispute serializes exactly as before: no `drift` key
    assert "drift" not in dispute.model_dump(mode="json") and set(dispute.model_dump()) == (
        set(Conflict.model_fields) - {"drift"})
