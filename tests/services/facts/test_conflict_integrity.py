"""DESIGN §4 timelines: an open conflict follows the claim through new versions until an explicit decision,
and no path (resolution, split, re-verification, correction) serves two values for one single-valued slot."""

from __future__ import annotations

import pytest

from credo.schema.errors import ConflictError, InvalidInput
from credo.services.facts import record as record_fact


def served(store, subject, predicate, at, scope=None):
    kwargs = {"scope": scope} if scope is not None else {}
    return [(f.value, f.disputed) for f in store.facts(subject, predicate, valid_at=at, **kwargs)]


@pytest.fixture
def disputed(store, clock):
    """Given Alice owns Acme from January and Bob from August arrives as a challenger."""
    clock.at("2025-01-01")
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    clock.at("2025-02-01")
    bob = store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
    assert bob.state == "conflicted"
    return alice, bob


# -- 1. the conflict follows the claim ---------------------------------------------------------------------
def test_restating_the_established_value_keeps_the_conflict_open_and_the_value_disputed(store, disputed):
    alice, _ = disputed
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    assert served(store, "Acme", "owned_by", "2024-09-01") == [("Alice", True)]
    [conflict] = store.conflicts()
    assert conflict.established.known_to is None and conflict.established.fact_id == alice.fact_id
    store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-08-01")
    assert served(store, "Acme", "owned_by", "2024-09-01") == [("Bob", False)]
    assert served(store, "Acme", "owned_by", "2024-07-01") == [("Alice", False)]
    assert store.conflicts() == []


def test_correcting_the_established_value_keeps_it_disputed_and_a_correction_decision_ends_it(store, disputed):
    alice, _ = disputed
    store.correct_fact(alice.fact_id, statement="Acme is owned by Alice")
    assert served(store, "Acme", "owned_by", "2024-09-01") == [("Alice", True)]
    [conflict] = store.conflicts()
    store.resolve_conflict(conflict.conflict_id, decision="correction")
    assert served(store, "Acme", "owned_by", "2024-09-01") == [("Bob", False)]
    # the correction replaces Alice only over Bob's interval (from August): before it she still holds
    assert served(store, "Acme", "owned_by", "2024-03-01") == [("Alice", False)]


def test_a_stale_flag_on_the_established_value_keeps_the_conflict_on_its_new_version(store, clock):
    premise = store.add_fact("Acme", "registered_in", "Delaware", valid_from="2023-01-01")
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", depends_on=[premise.fact_id])
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
    store.retract_fact(premise.fact_id, reason="never registered there")
    [conflict] = store.conflicts()
    assert conflict.established.fact_id == alice.fact_id
    assert conflict.established.known_to is None and conflict.established.state == "stale"
    assert [(v.state, v.disputed) for v in store.history(alice.fact_id)][-1] == ("stale", True)


def test_a_new_version_of_the_challenger_carries_the_conflict(store, disputed):
    _, bob = disputed
    store.correct_fact(bob.fact_id, valid_from="2024-09-01")
    [conflict] = store.conflicts()
    assert conflict.challenger.known_to is None and conflict.challenger.valid_from.month == 9
    assert served(store, "Acme", "owned_by", "2024-10-01") == [("Alice", True)]
    store.resolve_conflict(conflict.conflict_id, decision="reject", reason="Bob never bought it")
    assert served(store, "Acme", "owned_by", "2024-10-01") == [("Alice", False)]


def test_as_of_an_earlier_known_time_the_replaced_established_version_reads_disputed(store, clock, disputed):
    clock.at("2025-03-01")
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    [before] = store.facts("Acme", "owned_by", valid_at="2024-09-01", known_at="2025-02-15")
    assert before.value == "Alice" and before.disputed


# -- 2. succession never extends the established value --------------------------------------------------
def test_succession_after_a_bounded_established_value_ends_is_refused(store, clock):
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", valid_to="2024-03-01")
    bob = store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-02-01")
    assert bob.state == "conflicted"
    [conflict] = store.conflicts()
    with pytest.raises(InvalidInput) as err:
        store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-06-01")
    assert err.value.field == "at"
    assert served(store, "Acme", "owned_by", "2024-04-15") == []
    assert len(store.conflicts()) == 1


def test_succession_at_or_after_the_challengers_own_end_is_refused(store, clock):
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01", valid_to="2024-10-01")
    [conflict] = store.conflicts()
    with pytest.raises(InvalidInput) as err:
        store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-10-01")
    assert err.value.field == "at"
    assert len(store.conflicts()) == 1


# -- 3. split_scope respects the target scope ---------------------------------------------------------------
def test_split_into_a_scope_holding_a_different_value_is_refused_naming_it(store, clock):
    carol = store.add_fact("Acme", "owned_by", "Carol", valid_from="2024-01-01", scope={"env": "staging"})
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", scope={"env": "production"})
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-01-01", scope={"env": "production"})
    [conflict] = store.conflicts()
    with pytest.raises(ConflictError) as err:
        store.resolve_conflict(conflict.conflict_id, decision="split_scope", scope={"env": "staging"})
    assert carol.fact_id in str(err.value)
    assert served(store, "Acme", "owned_by", "2024-06-01", scope={"env": "staging"}) == [("Carol", False)]
    assert len(store.conflicts()) == 1


def test_split_into_an_empty_scope_serves_the_challenger_there(store, clock):
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", scope={"env": "production"})
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-01-01", scope={"env": "production"})
    [conflict] = store.conflicts()
    store.resolve_conflict(conflict.conflict_id, decision="split_scope", scope={"env": "staging"})
    assert served(store, "Acme", "owned_by", "2024-06-01", scope={"env": "staging"}) == [("Bob", False)]
    assert served(store, "Acme", "owned_by", "2024-06-01", scope={"env": "production"}) == [("Alice", False)]


# -- 4. re-verification is not a way around a decision ---------------------------------------------------
def test_reverifying_a_conflicted_challenger_is_refused_pointing_at_resolve_conflict(store, disputed):
    _, bob = disputed
    with pytest.raises(InvalidInput) as err:
        store.reverify(bob.fact_id, outcome="holds", note="checked")
    assert "resolve_conflict" in str(err.value)
    assert served(store, "Acme", "owned_by", "2024-09-01") == [("Alice", True)]
    [conflict] = store.conflicts()
    assert conflict.challenger.state == "conflicted" and conflict.challenger.known_to is None


def test_reverifying_a_candidate_is_refused_pointing_at_admit(store, clock):
    data = record_fact.validate(subject="Acme", predicate="hq", object="Berlin", valid_from="2024-01-01")
    [cand] = record_fact.add_facts(store._ctx, [data], state="candidate")
    with pytest.raises(InvalidInput) as err:
        store.reverify(cand.fact_id, outcome="holds", note="checked")
    assert "admit" in str(err.value)
    assert served(store, "Acme", "hq", "2024-06-01") == []


def test_reverifying_a_served_fact_reconfirms_it(store, clock):
    f = store.add_fact("Acme", "hq", "Berlin", valid_from="2024-01-01")
    again = store.reverify(f.fact_id, outcome="holds", note="checked the register")
    assert again.state == "active" and served(store, "Acme", "hq", "2024-06-01") == [("Berlin", False)]


# -- 5. a correction never creates two served values ----------------------------------------------------
def test_correcting_an_object_onto_an_overlapping_served_value_is_refused_naming_it(store, clock):
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", valid_to="2024-08-01")
    bob = store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
    assert bob.state == "active"
    with pytest.raises(ConflictError) as err:
        store.correct_fact(alice.fact_id, valid_to=None)
    assert bob.fact_id in str(err.value)
    assert [v for v, _ in served(store, "Acme", "owned_by", "2024-09-01")] == ["Bob"]


def test_correcting_the_object_of_a_value_that_overlaps_another_is_refused(store, clock):
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", scope={"env": "production"})
    carol = store.add_fact("Acme", "owned_by", "Carol", valid_from="2024-01-01", scope={"env": "staging"})
    with pytest.raises(ConflictError):
        store.correct_fact(carol.fact_id, scope={"env": "production"})
    assert served(store, "Acme", "owned_by", "2024-06-01", scope={"env": "production"}) == [("Alice", False)]


def test_correcting_a_value_within_its_own_slot_is_allowed(store, clock):
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", valid_to="2024-08-01")
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
    fixed = store.correct_fact(alice.fact_id, object="Alicia", valid_to="2024-07-01")
    assert fixed.value == "Alicia"
    assert served(store, "Acme", "owned_by", "2024-03-01") == [("Alicia", False)]


def test_rejecting_a_challenger_closes_its_dispute(store, clock):
    clock.at("2025-01-01")
    store.add_fact("Acme account", "owner", "Alice", valid_from="2024-01-01")
    bob = store.add_fact("Acme account", "owner", "Bob", valid_from="2024-08-01")
    assert bob.state == "conflicted" and store.facts("Acme account", "owner", valid_at="2024-09-01")[0].disputed
    store.reject(bob.fact_id, reason="the CRM sync was wrong")
    assert store.conflicts() == []
    served = store.facts("Acme account", "owner", valid_at="2024-09-01")
    assert [f.value for f in served] == ["Alice"] and not served[0].disputed
    [closed] = store.conflicts(include_resolved=True)
    assert closed.decision == "reject"
