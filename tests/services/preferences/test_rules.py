"""The pure rules of preference validation: the posterior's arithmetic, the bound, and when drift is seen."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput
from credo.services.preferences import rules


@pytest.mark.parametrize("outcomes, expected", [
    ([], (1, 1)),
    (["accepted"], (2, 1)),
    (["rejected"], (1, 2)),
    (["revoked"], (1, 1 + rules.REVOKE_PENALTY)),
    (["unknown", "unknown"], (1, 1)),
    (["accepted"] * 4 + ["revoked"], (5, 6)),
])
def test_the_posterior_after_outcomes(outcomes, expected):
    assert rules.posterior(outcomes) == expected


def test_an_outcome_of_another_kind_is_refused_naming_the_field():
    with pytest.raises(InvalidInput) as refused:
        rules.updated(1, 1, "maybe")
    assert refused.value.field == "outcome"


@pytest.mark.parametrize("alpha, beta", [(1, 1), (2, 1), (1, 30), (50, 1), (1000, 1)])
def test_the_lower_bound_lies_in_the_unit_interval_below_the_mean(alpha, beta):
    assert 0 <= rules.lower_bound(alpha, beta) <= rules.strength(alpha, beta) <= 1


@pytest.mark.parametrize("history, drifts", [
    (["accepted"] * 10 + ["rejected"] * 5, True),  # 10 accepted then 5 rejected: 1/7 against 11/17
    (["accepted"] * 3 + ["rejected"] * 5, False),  # too few outcomes for the long view to mean anything
    (["accepted"] * 15, False),  # steady
    (["accepted", "rejected"] * 8, False),  # mixed all along: the views agree
    (["rejected"] * 10 + ["accepted"] * 5, True),  # a change of mind the other way
])
def test_drift_is_seen_only_when_the_short_view_leaves_a_long_enough_one(history, drifts):
    alpha, beta = rules.posterior(history)
    window = history[-rules.DRIFT_WINDOW:]
    assert (rules.drifted(alpha, beta, len(history), window) is not None) is drifts
