"""Pure tier rules (seed 001): which tier a memory moves to in one sweep, if any.

| tier        | moves hotter → colder / up                         | moves back                          |
|-------------|----------------------------------------------------|-------------------------------------|
| working     | idle ≥ 24 h → short_term                           | —                                   |
| short_term  | uses ≥ 5 or active on ≥ 3 days → medium_term        | idle ≥ short TTL → working          |
| medium_term | importance ≥ 0.8 → long_term                        | idle ≥ 7 days → short_term          |

Idle is measured from the later of the last use and the move into the tier (so a memory just moved is not idle).
Only episodic and semantic memories take part; quarantined, archived (deprecated), rejected, forgotten and deleted
ones never move. At most one move per sweep, and none within `min_dwell` of the last move, so running the sweep
again at (about) the same time changes nothing. The numbers are the seed's engineering choices, not a model of
human memory; the seed leaves short_term's TTL open (default here: 7 days, like medium_term's).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from credo.schema.utility import OUTCOME_VALUE, MemoryUsage, Outcome, Tier

KINDS = frozenset({"episodic", "semantic"})
FROZEN = frozenset({"quarantined", "deprecated", "rejected", "forgotten", "deleted"})


@dataclass(frozen=True)
class TierPolicy:
    """The thresholds of the tier table."""

    working_idle: timedelta = timedelta(hours=24)
    promote_uses: int = 5
    promote_active_days: int = 3
    short_ttl: timedelta = timedelta(days=7)
    long_importance: float = 0.8
    medium_idle: timedelta = timedelta(days=7)
    min_dwell: timedelta = timedelta(hours=1)


DEFAULT_POLICY = TierPolicy()


def idle_for(usage: MemoryUsage, now: datetime) -> timedelta:
    """How long the memory has gone unused in its tier."""
    since = max(usage.tier_since, usage.last_used) if usage.last_used else usage.tier_since
    return now - since


def next_tier(usage: MemoryUsage, now: datetime, policy: TierPolicy = DEFAULT_POLICY) -> tuple[Tier, str] | None:
    """The one move this sweep makes for the memory, with its rule, or None."""
    if usage.kind not in KINDS or usage.state in FROZEN or now - usage.tier_since < policy.min_dwell:
        return None
    idle = idle_for(usage, now)
    if usage.tier == Tier.WORKING:
        if idle >= policy.working_idle:
            return Tier.SHORT, f"idle ≥ {policy.working_idle}"
    elif usage.tier == Tier.SHORT:
        if usage.uses >= policy.promote_uses:
            return Tier.MEDIUM, f"uses ≥ {policy.promote_uses}"
        if usage.active_days >= policy.promote_active_days:
            return Tier.MEDIUM, f"active on ≥ {policy.promote_active_days} days"
        if idle >= policy.short_ttl:
            return Tier.WORKING, f"idle ≥ {policy.short_ttl} (short-term TTL)"
    elif usage.tier == Tier.MEDIUM:
        if usage.importance >= policy.long_importance:
            return Tier.LONG, f"importance ≥ {policy.long_importance}"
        if idle >= policy.medium_idle:
            return Tier.SHORT, f"idle ≥ {policy.medium_idle}"
    return None


def reclassify(utility: float, old: str, new: str) -> float:
    """A memory's utility after one recall is re-classified from `old` to `new` (not an extra row: the
    difference of the two values); `unknown` changes nothing."""
    if new == Outcome.UNKNOWN:
        return utility
    return utility - OUTCOME_VALUE[Outcome(old)] + OUTCOME_VALUE[Outcome(new)]


def ttl_due(kind: str, state: str, created: datetime, now: datetime, ttl: timedelta | None) -> bool:
    """An episodic memory older than its tenant's TTL rolls off (by forgetting); other kinds never do."""
    return ttl is not None and kind == "episodic" and state not in {"forgotten", "deleted"} and now - created >= ttl
