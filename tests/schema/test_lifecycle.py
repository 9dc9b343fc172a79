"""The one transition table, pair by pair: every allowed move passes, every other one is refused naming both states."""

from __future__ import annotations

import itertools

import pytest

from credo.schema.errors import TransitionRefused
from credo.schema.lifecycle import SERVED, TRANSITIONS, State, check_transition

S = State
ALLOWED = [
    (S.CANDIDATE, S.ACTIVE), (S.CANDIDATE, S.REJECTED), (S.CANDIDATE, S.CONFLICTED), (S.CANDIDATE, S.QUARANTINED),
    (S.CANDIDATE, S.STALE), (S.CANDIDATE, S.FORGOTTEN),
    (S.ACTIVE, S.REINFORCED), (S.ACTIVE, S.STALE), (S.ACTIVE, S.CONFLICTED), (S.ACTIVE, S.DEPRECATED),
    (S.ACTIVE, S.QUARANTINED), (S.ACTIVE, S.FORGOTTEN),
    (S.REINFORCED, S.ACTIVE), (S.REINFORCED, S.STALE), (S.REINFORCED, S.CONFLICTED), (S.REINFORCED, S.DEPRECATED),
    (S.REINFORCED, S.QUARANTINED), (S.REINFORCED, S.FORGOTTEN),
    (S.STALE, S.ACTIVE), (S.STALE, S.DEPRECATED), (S.STALE, S.REJECTED), (S.STALE, S.FORGOTTEN),
    (S.CONFLICTED, S.ACTIVE), (S.CONFLICTED, S.REJECTED), (S.CONFLICTED, S.DEPRECATED), (S.CONFLICTED, S.FORGOTTEN),
    (S.DEPRECATED, S.ACTIVE), (S.DEPRECATED, S.FORGOTTEN),
    (S.QUARANTINED, S.CANDIDATE), (S.QUARANTINED, S.REJECTED), (S.QUARANTINED, S.FORGOTTEN),
    (S.REJECTED, S.FORGOTTEN),
    (S.FORGOTTEN, S.DELETED),
]
REFUSED = [pair for pair in itertools.product(State, State) if pair not in ALLOWED]


def test_the_table_is_exactly_the_listed_moves():
    assert {(a, b) for a, targets in TRANSITIONS.items() for b in targets} == set(ALLOWED)


@pytest.mark.parametrize(("current", "target"), ALLOWED, ids=[f"{a}->{b}" for a, b in ALLOWED])
def test_allowed_transition_passes(current, target):
    assert check_transition("f_x", current, target) == target


@pytest.mark.parametrize(("current", "target"), REFUSED, ids=[f"{a}->{b}" for a, b in REFUSED])
def test_refused_transition_names_both_states(current, target):
    with pytest.raises(TransitionRefused) as refused:
        check_transition("f_x", current, target)
    assert (refused.value.current, refused.value.target) == (current.value, target.value)
    assert f"{current.value} -> {target.value}" in refused.value.message


@pytest.mark.parametrize("gone", [S.FORGOTTEN, S.DELETED])
@pytest.mark.parametrize("served", sorted(SERVED))
def test_forgotten_and_deleted_never_come_back_to_a_served_state(gone, served):
    with pytest.raises(TransitionRefused):
        check_transition("f_x", gone, served)


def test_conflicted_cannot_be_reinforced():
    with pytest.raises(TransitionRefused):
        check_transition("f_x", S.CONFLICTED, S.REINFORCED)
