"""The JSON twins of the inspector's pages: one response model per page (the HTML renders the same model)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from credo.schema.cascade import Justification, StaleItem, Summary
from credo.schema.diff import BeliefDiff
from credo.schema.episodic import Reflection
from credo.schema.facts import Conflict, Fact
from credo.schema.forget import ForgetPreview  # noqa: F401 - the forget confirmation's view model
from credo.schema.ledger import AuditEvent
from credo.schema.policy import WritePolicyEntry, WritePolicyVersion
from credo.schema.preferences import Preference
from credo.schema.provenance import WhyTree
from credo.schema.receipts import ReadReceipt
from credo.schema.transition import TransitionReport
from credo.schema.verify import ReviewItem


class EntityRow(BaseModel):
    """One entity of the list: its name, how many current facts name it as subject, their predicates and states."""

    name: str
    facts: int
    predicates: list[str]
    states: list[str]


class EntitiesView(BaseModel):
    """The entities page: entities and facts matching the filters, one cursor page of entities."""

    q: str | None = None
    state: str | None = None
    kind: str | None = None
    evidence: str | None = None
    items: list[EntityRow]
    facts: list[Fact]
    next_cursor: str | None = None


class Rectangle(BaseModel):
    """One version as drawn: its valid interval (x) × known interval (y), in SVG units, and its label."""

    predicate: str  # one picture per predicate, all on the same axes
    fact_id: str
    version_id: str
    statement: str
    object_name: str
    state: str
    label: str  # current, succession, correction, retraction, end, conflict, resolution, range_write, ...
    valid_from: datetime | None
    valid_to: datetime | None
    known_from: datetime
    known_to: datetime | None
    x: float
    y: float
    width: float
    height: float


class TimelineView(BaseModel):
    """An entity's timeline: every version a rectangle, and the as-of answer at (valid_at, known_at)."""

    entity: str
    entity_id: str | None = None
    valid_at: datetime
    known_at: datetime | None = None
    rectangles: list[Rectangle]
    as_of: list[Fact]


class WhyView(BaseModel):
    """A fact's why-view: the why tree, its versions, justifications, and the summaries derived from it."""

    why: WhyTree
    history: list[Fact]
    justifications: list[Justification]
    summaries: list[Summary]
    ledger: list[AuditEvent] = Field(default_factory=list)  # who did what when, from the audit ledger
    receipts: list[ReadReceipt] = Field(default_factory=list)  # the tasks it was served to, with the versions
    missing: list[str] = Field(default_factory=list)  # parts this server cannot show yet (named, never hidden)


class QueuesView(BaseModel):
    """What awaits a person: open conflicts, the stale queue with causes, candidates awaiting admission."""

    conflicts: list[Conflict]
    stale: list[StaleItem]
    candidates: list[Fact]
    # the posterior of each preference a drift item of `conflicts` is about, by fact id (issue 27)
    preferences: dict[str, Preference] = Field(default_factory=dict)


class DiffView(BaseModel):
    """The "what changed" page: the window as asked (None: a week ago / now) and the belief diff read for it."""

    since: str | None = None
    until: str | None = None
    subject: str | None = None
    diff: BeliefDiff


class ReviewView(BaseModel):
    """The review page: the oldest pending items (each candidate beside its excerpt) and whether more wait."""

    items: list[ReviewItem]
    more: bool = False


class KindRow(BaseModel):
    """One kind of memory under the policy in force: who earns a slot, when it is written, what invalidates it, who
    sees it (the tenant's override, else DESIGN §9's default), and for episodic memory the TTL per workflow."""

    kind: str
    earns: str
    when: str
    invalidate: str
    visible: str
    overridden: list[str] = Field(default_factory=list)  # the fields the tenant's policy sets for this kind
    ttls: dict[str, str] = Field(default_factory=dict)


class PolicyView(BaseModel):
    """The write policy page: the version in force (as known at `known_at`, default now), its table per kind, and
    one page of the policy's versions (each linked to the page as known then)."""

    known_at: str | None = None
    version: WritePolicyVersion
    kinds: list[KindRow]
    versions: list[WritePolicyEntry] = Field(default_factory=list)  # a page of its versions, newest first
    after: str | None = None  # the version that page starts after (None: from the newest)
    next_after: str | None = None  # the version the next page starts after (None: the defaults closed the list)


class EpisodesView(BaseModel):
    """The episodes page: the window as asked, one keyset page of the episodes in time order, and the next page's
    cursor; no episode when neither an entity nor a session is named."""

    entity: str | None = None
    session: str | None = None
    from_: str | None = None
    to: str | None = None
    items: list[Fact] = Field(default_factory=list)
    next_cursor: str | None = None


class ReflectView(BaseModel):
    """A reflection run from the episodes page: the window it read and what it proposes (nothing was written but
    its ledger event)."""

    entity: str | None = None
    session: str | None = None
    from_: str | None = None
    to: str | None = None
    reflection: Reflection


class TransitionView(BaseModel):
    """The transition check page: the two known times as asked, and the report (None until both are given)."""

    known_before: str | None = None
    known_after: str | None = None
    report: TransitionReport | None = None
