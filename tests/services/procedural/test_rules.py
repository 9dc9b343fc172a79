"""The rules of procedural memory, pure: the shape key, the smoothed rate, retirement and consent."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput, TransitionRefused
from credo.services.procedural.rules import (after_consent, after_outcome, outcome_shown, retires, shape_key,
                                             success_rate)


@pytest.mark.parametrize("one,other", [
    ("Deploy the API to staging", "deploy the api to staging"),  # case
    ("deploy  the API\tto   staging ", "deploy the API to staging"),  # spacing
    ("to staging deploy the API", "deploy the API to staging"),  # word order
    ("Deploy the API, to staging!", "deploy: the API to staging"),  # punctuation
    ("ＤＥＰＬＯＹ the API to staging", "deploy the API to staging"),  # full-width letters (NFKC)
    ("Straße migration", "STRASSE migration"),  # case-folding, not lower-casing
])
def test_phrasings_that_differ_only_in_case_spacing_order_or_punctuation_share_a_key(one, other):
    assert shape_key(one) == shape_key(other)


@pytest.mark.parametrize("one,other", [
    ("deploy the API to staging", "deploy the API to production"),
    ("write C++ build", "write C build"),  # symbols are kept
    ("rotate the keys", "rotate the key"),  # no stemming: a different word is a different shape
    ("deploy deploy", "deploy"),  # words are a multiset, not a set
])
def test_different_tasks_have_different_keys(one, other):
    assert shape_key(one) != shape_key(other)


def test_a_shape_without_a_word_is_refused_naming_the_field():
    with pytest.raises(InvalidInput) as refused:
        shape_key(" ,;! ")
    assert refused.value.field == "task_shape"


@pytest.mark.parametrize("uses,successes,rate", [(0, 0, 0.5), (1, 1, 2 / 3), (10, 3, 4 / 12), (10, 9, 10 / 12)])
def test_the_rate_is_laplace_smoothed(uses, successes, rate):
    assert success_rate(uses, successes) == pytest.approx(rate)


@pytest.mark.parametrize("uses,successes,retired", [
    (9, 0, False),  # below the minimum uses, however bad
    (10, 3, True),  # 0.33 over 10 uses
    (10, 4, True),  # 5/12 = 0.42
    (10, 5, False),  # 6/12 = 0.5 is not below 0.5
    (20, 9, True),  # 10/22 = 0.45
])
def test_retirement_needs_the_minimum_uses_and_a_rate_below_the_threshold(uses, successes, retired):
    assert retires(uses, successes) is retired


@pytest.mark.parametrize("outcome,after", [("success", ("live", 4, 3)), ("failure", ("live", 4, 2)),
                                            ("unknown", ("live", 3, 2))])
def test_success_and_failure_count_and_unknown_changes_nothing(outcome, after):
    assert after_outcome("r_1", "live", 3, 2, outcome) == after


@pytest.mark.parametrize("state", ["retired", "declined"])
def test_an_outcome_of_a_retired_or_declined_recipe_is_refused(state):
    with pytest.raises(TransitionRefused):
        after_outcome("r_1", state, 10, 3, "success")


@pytest.mark.parametrize("state,user_facing,accept,target", [
    ("pending_consent", True, True, "live"),
    ("pending_consent", True, False, "declined"),
    ("live", True, False, "declined"),  # a person may withdraw consent
    ("live", True, True, None),  # already live
    ("declined", True, True, None),  # declined is final
    ("retired", True, True, None),
    ("live", False, True, None),  # not user-facing: nothing to consent to
])
def test_consent_moves_only_a_user_facing_recipe(state, user_facing, accept, target):
    if target is None:
        with pytest.raises(TransitionRefused):
            after_consent("r_1", state, user_facing, accept)
    else:
        assert after_consent("r_1", state, user_facing, accept) == target


@pytest.mark.parametrize("kind,origin,shown", [
    ("tool_result", None, True), ("observation", None, True), ("document", None, False),
    ("message", "human_input", False), ("message", "agent", False), ("message", "tool_result", True),
    ("message", "task_result", True),
])
def test_only_a_tool_result_or_an_observation_shows_an_outcome(kind, origin, shown):
    assert outcome_shown(kind, origin) is shown
