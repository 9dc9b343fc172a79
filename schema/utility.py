"""Memory tiers and the utility ledger (seed 001, issue 12 item 6): models only; rules in services/recall/tier_rules.py."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from credo.schema.cascade import CascadeReport
from credo.schema.forget import ResidueReport


class Tier(StrEnum):
    """Where a memory sits, hottest first."""

    WORKING = "working"
    SHORT = "short_term"
    MEDIUM = "medium_term"
    LONG = "long_term"


class Outcome(StrEnum):
    """How a served recall turned out: neutral until feedback re-classifies it."""

    NEUTRAL = "neutral"
    USEFUL = "useful"
    HARMFUL = "harmful"
    UNKNOWN = "unknown"  # feedback that knows nothing: logged, changes nothing


FeedbackOutcome = Literal["useful", "harmful", "unknown", "neutral"]
"""What feedback may say of a served recall (the Outcome a recall can be re-classified to)."""
FEEDBACK_OUTCOMES: tuple[FeedbackOutcome, ...] = get_args(FeedbackOutcome)
assert set(FEEDBACK_OUTCOMES) == {o.value for o in Outcome}

OUTCOME_VALUE: dict[Outcome, float] = {Outcome.NEUTRAL: 0.0, Outcome.USEFUL: 1.0, Outcome.HARMFUL: -2.0}
"""What one recall adds to a memory's utility (misleading costs more than helping earns)."""


class MemoryUsage(BaseModel):
    """One memory's utility ledger: tier, use counts and net utility (the sum over its recalls' outcomes)."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    kind: str
    state: str
    created: datetime  # the memory's first known time
    tier: Tier = Tier.WORKING
    tier_since: datetime
    placed: bool = True  # False until a sweep or a recall gave it a usage row (it counts as working since created)
    uses: int = 0
    active_days: int = 0
    last_used: datetime | None = None
    importance: float = 0.5
    utility: float = 0.0
    recalls: dict[str, int] = Field(default_factory=dict)  # outcome -> number of recalls now classified so
    ttl_due_at: datetime | None = None  # an episodic memory past its tenant's TTL: due for forgetting


class TierMove(BaseModel):
    """One move a sweep made, and the rule that made it."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    from_tier: Tier
    to_tier: Tier
    rule: str


class MaintainReport(CascadeReport):
    """What `maintain` did: the cascade of ended premises, the tier moves, and the episodic memories due by TTL."""

    tier_moves: list[TierMove] = Field(default_factory=list)
    ttl_due: list[str] = Field(default_factory=list)  # fact ids past the episodic TTL, forgotten by this sweep
    rolled_off: list[ResidueReport] = Field(default_factory=list)  # TTL roll-off is forgetting: each one verified
