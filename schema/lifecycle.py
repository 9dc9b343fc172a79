"""Lifecycle states, the one transition table, and the one definition of what is served."""

from __future__ import annotations

from enum import StrEnum

from credo.schema.errors import TransitionRefused


class State(StrEnum):
    """Lifecycle state of a fact or summary version."""

    CANDIDATE = "candidate"
    ACTIVE = "active"
    REINFORCED = "reinforced"
    STALE = "stale"
    CONFLICTED = "conflicted"
    DEPRECATED = "deprecated"
    QUARANTINED = "quarantined"
    REJECTED = "rejected"
    FORGOTTEN = "forgotten"
    DELETED = "deleted"


S = State

# Retrieval may serve these as current knowledge; every query derives its filter from this set.
SERVED: frozenset[State] = frozenset({S.ACTIVE, S.REINFORCED})
SERVED_VALUES: list[str] = sorted(s.value for s in SERVED)

# States awaiting a decision or re-verification: reported as "open", never as current.
OPEN: frozenset[State] = frozenset({S.CANDIDATE, S.STALE, S.CONFLICTED, S.QUARANTINED})

TRANSITIONS: dict[State, frozenset[State]] = {
    S.CANDIDATE: frozenset({S.ACTIVE, S.REJECTED, S.CONFLICTED, S.QUARANTINED, S.STALE, S.FORGOTTEN}),
    S.ACTIVE: frozenset({S.REINFORCED, S.STALE, S.CONFLICTED, S.DEPRECATED, S.QUARANTINED, S.FORGOTTEN}),
    S.REINFORCED: frozenset({S.ACTIVE, S.STALE, S.CONFLICTED, S.DEPRECATED, S.QUARANTINED, S.FORGOTTEN}),
    S.STALE: frozenset({S.ACTIVE, S.DEPRECATED, S.REJECTED, S.FORGOTTEN}),
    # a dispute needs a decision: it can be admitted, rejected or set aside, never reinforced
    S.CONFLICTED: frozenset({S.ACTIVE, S.REJECTED, S.DEPRECATED, S.FORGOTTEN}),
    S.DEPRECATED: frozenset({S.ACTIVE, S.FORGOTTEN}),
    S.QUARANTINED: frozenset({S.CANDIDATE, S.REJECTED, S.FORGOTTEN}),
    S.REJECTED: frozenset({S.FORGOTTEN}),
    S.FORGOTTEN: frozenset({S.DELETED}),
    S.DELETED: frozenset(),
}


_SERVED_BY_VALUE = {s.value: s in SERVED for s in State}  # a cascade asks this per version met: no enum lookup


def is_served(state: str) -> bool:
    """Whether retrieval may serve a version in this state as current knowledge."""
    served = _SERVED_BY_VALUE.get(state)
    return State(state) in SERVED if served is None else served


def check_transition(identifier: str, current: str, target: str) -> State:
    """Return the target state, or raise TransitionRefused if the table does not allow it."""
    src, dst = State(current), State(target)
    if dst not in TRANSITIONS[src]:
        raise TransitionRefused(identifier, src.value, dst.value)
    return dst
