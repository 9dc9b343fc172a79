"""The tier table and the utility arithmetic as pure rules (seed 001), table-driven over their edges."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.utility import MemoryUsage, Tier
from credo.services.recall.tier_rules import next_tier, reclassify, ttl_due

T0 = datetime(2025, 1, 1, tzinfo=timezone.utc)
H = timedelta(hours=1)
D = timedelta(days=1)


def usage(tier=Tier.WORKING, *, since=T0, uses=0, days=0, last=None, importance=0.5, kind="semantic",
          state="active") -> MemoryUsage:
    return MemoryUsage(fact_id="f_1", kind=kind, created=T0, state=state, tier=tier, tier_since=since, uses=uses,
                       active_days=days, last_used=last, importance=importance)


@pytest.mark.parametrize("memory, now, expected", [
    (usage(), T0 + 24 * H, Tier.SHORT),                                   # idle exactly 24 h: moves
    (usage(), T0 + 24 * H - timedelta(microseconds=1), None),             # just under: stays
    (usage(last=T0 + 12 * H), T0 + 30 * H, None),                         # used 18 h ago: not idle enough
    (usage(Tier.SHORT, uses=5), T0 + 2 * H, Tier.MEDIUM),                 # uses ≥ 5
    (usage(Tier.SHORT, uses=4, days=2), T0 + 2 * H, None),                # neither threshold
    (usage(Tier.SHORT, days=3), T0 + 2 * H, Tier.MEDIUM),                 # active on 3 days
    (usage(Tier.SHORT), T0 + 7 * D, Tier.WORKING),                        # short-term TTL (7 days) demotes
    (usage(Tier.SHORT, uses=5), T0 + 8 * D, Tier.MEDIUM),                 # promotion wins over TTL: one move only
    (usage(Tier.MEDIUM, importance=0.8), T0 + 2 * H, Tier.LONG),          # importance ≥ 0.8 (equal counts)
    (usage(Tier.MEDIUM, importance=0.79), T0 + 2 * H, None),
    (usage(Tier.MEDIUM), T0 + 7 * D, Tier.SHORT),                         # idle ≥ 7 days demotes
    (usage(Tier.LONG), T0 + 365 * D, None),                               # long term stays
    (usage(Tier.SHORT, uses=9), T0 + 30 * timedelta(minutes=1), None),    # moved half an hour ago: no flapping
    (usage(state="quarantined"), T0 + 9 * D, None),                       # quarantined never moves
    (usage(state="deprecated"), T0 + 9 * D, None),                        # archived never moves
    (usage(state="rejected"), T0 + 9 * D, None),                          # rejected never moves
    (usage(kind="procedural"), T0 + 9 * D, None),                         # only episodic and semantic memories
    (usage(kind="episodic"), T0 + 24 * H, Tier.SHORT),
])
def test_one_sweep_moves_a_memory_at_most_one_tier_by_the_table(memory, now, expected):
    move = next_tier(memory, now)
    assert (move[0] if move else None) == expected


@pytest.mark.parametrize("utility, old, new, expected", [
    (0.0, "neutral", "useful", 1.0),      # one recall then "useful" nets exactly 1.0, not 1.1
    (0.0, "neutral", "harmful", -2.0),
    (0.0, "neutral", "unknown", 0.0),     # unknown changes nothing
    (1.0, "useful", "harmful", -2.0),     # a second verdict replaces the first
    (1.0, "useful", "useful", 1.0),       # the same verdict twice counts once
    (-2.0, "harmful", "neutral", 0.0),
])
def test_feedback_reclassifies_a_recall_instead_of_adding_one(utility, old, new, expected):
    assert reclassify(utility, old, new) == expected


@pytest.mark.parametrize("kind, state, age, ttl, expected", [
    ("episodic", "active", 14 * D, 14 * D, True),
    ("episodic", "active", 14 * D - H, 14 * D, False),
    ("episodic", "active", 400 * D, None, False),        # no TTL set for the tenant: nothing rolls off
    ("semantic", "active", 400 * D, 14 * D, False),      # only episodic memories have a TTL
    ("episodic", "forgotten", 400 * D, 14 * D, False),   # already forgotten
])
def test_episodic_memories_roll_off_after_their_tenants_ttl(kind, state, age, ttl, expected):
    assert ttl_due(kind, state, T0, T0 + age, ttl) is expected
