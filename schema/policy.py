"""The write policy (DESIGN §9): the four decisions every write makes, per kind of memory — who earns a slot, when it
is written, what invalidates it, who sees the write — as a `WritePlan`, and a tenant's `WritePolicy` overriding the
defaults (stored as versions: services/policy/).

Models only; the rule that turns a candidate, its kind and a policy into a plan is services/policy/rules.py.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from credo.schema.facts import MemoryKind
from credo.schema.names import NAME_MAX, name_controls

When = Literal["inline", "end_of_turn", "reflection", "task_end"]
"""When the write happens: as it is observed, at the end of the turn, after a reflection admitted it, when the task
ends."""
Invalidate = Literal["ttl", "source", "reward", "edge"]
"""What ends it: its TTL rolling off, its source changing, reward decay, the edge becoming historical."""
Visible = Literal["silent", "logged", "surfaced"]
"""Who sees the write: nobody, the ledger's readers, the person (asked for consent)."""
WHENS: tuple[When, ...] = get_args(When)
INVALIDATES: tuple[Invalidate, ...] = get_args(Invalidate)
VISIBLES: tuple[Visible, ...] = get_args(Visible)

DEFAULT_POLICY_ID = "default"
DEFAULT_TTLS = {"default": "P30D", "chat": "PT24H", "incident": "P90D"}
"""An episode's TTL per kind of workflow when the tenant set none (DESIGN §9: "e.g. 24 h, 30 d, 90 d"); a workflow not
named keeps the "default" entry's. A tenant's own table replaces this one whole."""
DEFAULT_TTL = DEFAULT_TTLS["default"]
TTL_MAX = timedelta(days=3_660)  # ten years: a longer TTL is a typo, not a retention decision
WORKFLOWS_MAX = 64

_DURATION = TypeAdapter(timedelta)


def duration(value: str) -> timedelta:
    """An ISO-8601 duration ('P30D', 'PT24H') as a timedelta; ValueError naming the rule otherwise."""
    if not isinstance(value, str) or not value.startswith("P"):
        raise ValueError(f"{value!r} is not an ISO-8601 duration (e.g. 'P30D', 'PT24H')")
    try:
        parsed = _DURATION.validate_python(value)
    except ValidationError:
        raise ValueError(f"{value!r} is not an ISO-8601 duration (e.g. 'P30D', 'PT24H')") from None
    if not timedelta(0) < parsed <= TTL_MAX:
        raise ValueError(f"{value!r}: a TTL is more than zero and at most ten years")
    return parsed


def _checked_duration(value: str) -> str:
    duration(value)
    return value


Duration = Annotated[str, Field(max_length=64), AfterValidator(_checked_duration)]
"""An ISO-8601 duration as text, positive, at most ten years."""
Workflow = Annotated[str, Field(min_length=1, max_length=NAME_MAX), AfterValidator(name_controls)]


class WritePlan(BaseModel):
    """What `should_write` decided for one write: the rule that earned the slot, when it is written, what
    invalidates it, who sees it, an episode's TTL, and the policy version that produced it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: MemoryKind
    earns: str  # the rule that earned the slot, e.g. "a source backs it"
    when: When
    invalidate: Invalidate
    visible: Visible
    ttl: Duration | None = None  # an ISO-8601 duration, episodic only
    policy: str = DEFAULT_POLICY_ID  # the stored policy version's id, or "default"

    def compact(self) -> str:
        """The plan as the short JSON text stored on the version it admitted."""
        return self.model_dump_json(exclude_none=True)

    @classmethod
    def from_compact(cls, text: str | None) -> WritePlan | None:
        """The plan a version stores, or None (written before plans were recorded, or unreadable)."""
        if not text:
            return None
        try:
            return cls.model_validate(json.loads(text))
        except (ValueError, ValidationError):
            return None


class KindRule(BaseModel):
    """A tenant's override for one kind: `earns: "never"` gives it no slot; when / invalidate / visible replace the
    default's; `ttl` (episodic only) maps a kind of workflow to its TTL, with a "default" entry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    earns: Literal["never"] | None = Field(default=None, description='"never": writes of this kind earn no slot')
    when: When | None = None
    invalidate: Invalidate | None = None
    visible: Visible | None = None
    ttl: Annotated[dict[Workflow, Duration], Field(max_length=WORKFLOWS_MAX)] | None = Field(
        default=None, description='episodic only: workflow -> ISO-8601 duration, with a "default" entry, e.g. '
                                  '{"default": "P30D", "chat": "PT24H", "incident": "P90D"}')

    @field_validator("ttl")
    @classmethod
    def _has_default(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if value is not None and DEFAULT_POLICY_ID not in value:
            raise ValueError('a TTL per workflow needs a "default" entry (the TTL of any other workflow)')
        return value


class WritePolicy(BaseModel):
    """A tenant's write policy: an override per kind (absent: DESIGN §9's defaults)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    episodic: KindRule | None = None
    semantic: KindRule | None = None
    procedural: KindRule | None = None
    relational: KindRule | None = None

    @field_validator("semantic", "procedural", "relational")
    @classmethod
    def _ttl_is_episodic(cls, value: KindRule | None) -> KindRule | None:
        if value is not None and value.ttl is not None:
            raise ValueError("ttl: only episodic memory rolls off by TTL")
        return value

    def rule(self, kind: str) -> KindRule:
        """The override for `kind` (an empty one when the policy sets none)."""
        return getattr(self, kind, None) or KindRule()


class WritePolicyVersion(BaseModel):
    """The policy in force for a tenant at a known time: its id ("default" when the tenant never set one), since
    when it was known, until when (None: still in force), and the document."""

    model_config = ConfigDict(frozen=True)

    policy_id: str
    known_from: datetime | None = None  # None for the default policy: it was never written
    known_to: datetime | None = None
    policy: WritePolicy = Field(default_factory=WritePolicy)


DEFAULT_VERSION = WritePolicyVersion(policy_id=DEFAULT_POLICY_ID)


PolicyValue = str | dict[str, str] | None
"""One field of a kind's override as stored: a word ("logged", "never"), an episodic TTL table, or None (the
default)."""


class PolicyChange(BaseModel):
    """One field of one kind that a version set differently from the version before it (None: the default)."""

    model_config = ConfigDict(frozen=True)

    kind: MemoryKind
    field: Literal["earns", "when", "invalidate", "visible", "ttl"]
    before: PolicyValue = None
    after: PolicyValue = None


class WritePolicyEntry(WritePolicyVersion):
    """One version of a tenant's write policy as listed: its id and known interval, the principal who set it (None
    for the defaults, which nobody set), the plan it gives each kind (None: the kind earns no slot) and what it
    changed from the version before it (the oldest stored version is compared with the defaults)."""

    set_by: str | None = None
    plans: dict[str, WritePlan | None] = Field(default_factory=dict)
    changes: list[PolicyChange] = Field(default_factory=list)


class WritePolicyVersions(BaseModel):
    """One page of a tenant's write policy versions, newest first, the defaults last; pass `next_after` as `after`
    for the next page (null: the last)."""

    items: list[WritePolicyEntry]
    next_after: str | None = None
