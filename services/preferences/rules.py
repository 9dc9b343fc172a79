"""The rules of preference validation (DESIGN §12), pure: the Beta posterior, the revoke penalty, and drift.

A preference starts from the uniform prior Beta(1, 1) (strength 0.5: nothing known). Each counted outcome of acting
on it moves the posterior: accepted α + 1, rejected β + 1, revoked β + REVOKE_PENALTY. Unknown counts nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from credo.schema.errors import InvalidInput

PRIOR = (1.0, 1.0)
"""Beta(1, 1): uniform, the strength of a preference no outcome has tested yet is 0.5."""

REVOKE_PENALTY = 5.0
"""What one revocation adds to β. A rejection says "not this time"; a revocation says the person took the preference
back ("stop doing that"), which is far stronger evidence that acting on it is now wrong. Five rejections' weight
means one revocation pulls a preference accepted four times (Beta(5, 1), 0.83) below even odds (Beta(5, 6), 0.45)
at once, while a long record of acceptances (Beta(21, 1)) only drops to 0.78: heavy, but not an erasure. The
decision to drop the preference stays a person's (drift opens an item; nothing is rewritten)."""

DRIFT_WINDOW = 5
"""How many of the latest counted outcomes make the short-term view."""

DRIFT_THRESHOLD = 0.3
"""How far (in posterior mean) the short-term view must leave the long-term one to open a drift item."""

DRIFT_MIN_OUTCOMES = 2 * DRIFT_WINDOW
"""Drift is checked only once the long-term view rests on at least twice the window: before, the two views share
most of their outcomes and a short run of one kind is noise, not a change of mind."""

PREFERENCE_PREDICATES = frozenset({"preference", "prefers", "likes", "dislikes"})
"""The predicates that make a fact a preference: `remember(..., category="preference")` records one, and so does a
direct write with one of these predicates."""

CREDIBLE_Z = 1.2816
"""z of the one-sided 90 % bound of the normal approximation (`lower`)."""

COUNTED = ("accepted", "rejected", "revoked")


def is_preference(predicate: str) -> bool:
    """Whether a fact with this predicate is a preference."""
    return predicate in PREFERENCE_PREDICATES


def updated(alpha: float, beta: float, outcome: str) -> tuple[float, float]:
    """The posterior after one outcome (unknown: unchanged)."""
    if outcome == "accepted":
        return alpha + 1.0, beta
    if outcome == "rejected":
        return alpha, beta + 1.0
    if outcome == "revoked":
        return alpha, beta + REVOKE_PENALTY
    if outcome == "unknown":
        return alpha, beta
    raise InvalidInput("outcome", "must be accepted, rejected, revoked or unknown")


def posterior(outcomes: Sequence[str]) -> tuple[float, float]:
    """The posterior from the prior after `outcomes`, in order."""
    alpha, beta = PRIOR
    for outcome in outcomes:
        alpha, beta = updated(alpha, beta, outcome)
    return alpha, beta


def strength(alpha: float, beta: float) -> float:
    """The posterior mean α / (α + β)."""
    return alpha / (alpha + beta)


def lower_bound(alpha: float, beta: float) -> float:
    """An approximate 90 % lower credible bound: the mean less z standard deviations, clipped to [0, 1] (cheap; the
    exact Beta quantile differs little once a few outcomes are counted)."""
    total = alpha + beta
    sd = math.sqrt(alpha * beta / (total * total * (total + 1.0)))
    return min(1.0, max(0.0, strength(alpha, beta) - CREDIBLE_Z * sd))


def recent(window: Sequence[str], outcome: str) -> list[str]:
    """The short-term window after a counted outcome: the last DRIFT_WINDOW outcomes, oldest first."""
    return [*window, outcome][-DRIFT_WINDOW:]


def drifted(alpha: float, beta: float, outcomes: int, window: Sequence[str]) -> tuple[float, float] | None:
    """(short mean, long mean) when the short-term view has left the long-term one by more than the threshold, else
    None; never before DRIFT_MIN_OUTCOMES counted outcomes."""
    if outcomes < DRIFT_MIN_OUTCOMES or not window:
        return None
    short, long = strength(*posterior(window)), strength(alpha, beta)
    return (short, long) if abs(short - long) > DRIFT_THRESHOLD else None
