"""Preference validation on a real Neo4j (DESIGN §12): the Beta posterior's arithmetic, the revoke penalty, unknown
outcomes logged only, and a posterior read as of an earlier known time."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput, NotFound
from credo.services.preferences.rules import REVOKE_PENALTY


def test_a_preference_starts_from_the_uniform_prior(store, preference):
    found = store.preference(preference.fact_id)
    assert (found.alpha, found.beta, found.strength, found.outcomes, found.version_id, found.drift) == (
        1, 1, 0.5, 0, None, None)


def test_accepted_adds_one_to_alpha_rejected_one_to_beta_revoked_the_penalty_to_beta(store, preference, clock):
    # when acting on the preference was accepted twice, rejected once, then revoked
    answers = []
    for outcome in ["accepted", "accepted", "rejected", "revoked"]:
        answers.append(store.preference_outcome(preference.fact_id, outcome))
    # then each outcome moved the posterior by its rule
    assert [(a.alpha, a.beta) for a in answers] == [(2, 1), (3, 1), (3, 2), (3, 2 + REVOKE_PENALTY)]
    now = store.preference(preference.fact_id)
    assert (now.alpha, now.beta, now.outcomes) == (3, 2 + REVOKE_PENALTY, 4)
    assert now.strength == pytest.approx(3 / (5 + REVOKE_PENALTY))
    assert 0 <= now.lower < now.strength
    assert now.recent == ["accepted", "accepted", "rejected", "revoked"]
    # every counted outcome is one ledger event naming the fact
    events = store.audit(operation="preference_outcome").items
    assert [e.detail["outcome"] for e in events] == ["accepted", "accepted", "rejected", "revoked"]
    assert {e.subject_id for e in events} == {preference.fact_id}


def test_one_revocation_pulls_a_preference_accepted_four_times_below_even_odds(store, preference, clock):
    for _ in range(4):
        store.preference_outcome(preference.fact_id, "accepted")
    assert store.preference(preference.fact_id).strength == pytest.approx(5 / 6)
    assert store.preference_outcome(preference.fact_id, "revoked").strength == pytest.approx(5 / 11)


def test_an_unknown_outcome_writes_a_ledger_event_and_no_new_version(store, preference, clock):
    first = store.preference_outcome(preference.fact_id, "accepted")
    after = store.preference_outcome(preference.fact_id, "unknown")
    # the posterior is the same version, unchanged
    assert (after.version_id, after.alpha, after.beta, after.outcomes) == (first.version_id, 2, 1, 1)
    assert store.preference(preference.fact_id).version_id == first.version_id
    [event] = [e for e in store.audit(operation="preference_outcome").items if e.detail["outcome"] == "unknown"]
    assert event.subject_id == preference.fact_id and "version_id" not in event.detail


def test_an_unknown_outcome_on_a_fresh_preference_writes_no_posterior(store, preference, clock):
    answer = store.preference_outcome(preference.fact_id, "unknown")
    assert (answer.version_id, answer.outcomes) == (None, 0)
    assert store.preference(preference.fact_id).version_id is None


def test_the_posterior_is_read_as_the_store_knew_it_at_an_earlier_time(store, preference, clock):
    clock.at("2025-06-02T10:00:00+00:00")
    store.preference_outcome(preference.fact_id, "accepted")
    clock.at("2025-06-03T10:00:00+00:00")
    store.preference_outcome(preference.fact_id, "accepted")
    clock.at("2025-06-04T10:00:00+00:00")
    store.preference_outcome(preference.fact_id, "rejected")
    then = store.preference(preference.fact_id, known_at="2025-06-03T12:00:00+00:00")
    assert (then.alpha, then.beta, then.outcomes) == (3, 1, 2)
    assert then.known_to is not None  # a later outcome closed that version
    before_any = store.preference(preference.fact_id, known_at="2025-06-01T12:00:00+00:00")
    assert (before_any.alpha, before_any.beta, before_any.outcomes) == (1, 1, 0)
    assert (store.preference(preference.fact_id).alpha, store.preference(preference.fact_id).beta) == (3, 2)


def test_an_outcome_on_a_fact_that_is_no_preference_is_refused_naming_the_field(store, preference):
    other = store.add_fact("deploy window", "is", "Sunday", valid_from="2025-01-01")
    with pytest.raises(InvalidInput) as refused:
        store.preference_outcome(other.fact_id, "accepted")
    assert refused.value.field == "fact_id" and "not a preference" in str(refused.value)
    with pytest.raises(NotFound):
        store.preference_outcome("f_missing", "accepted")


def test_an_outcome_of_another_kind_is_refused(store, preference):
    with pytest.raises(InvalidInput) as refused:
        store.preference_outcome(preference.fact_id, "liked")
    assert refused.value.field == "outcome"
