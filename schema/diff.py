"""The belief diff's shapes (DESIGN.md §11): what the store believed differently between two known times, and the
rows its repository reads (versions whose belief began or ended, state flags, disputes) before a pure rule
classifies them."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from credo.schema.facts import Fact


class ChangeKind(StrEnum):
    """What happened to a belief; the order is the order of changes made by one write (a cause before its
    effects: what stopped being believed before what went stale because of it)."""

    ADDED = "added"  # a fact first believed
    CORRECTED = "corrected"  # we were wrong: an old version replaced by a new one of the same fact (or a range write)
    SUPERSEDED = "superseded"  # a succession: the fact ended in valid time, a successor holds from there
    ENDED = "ended"  # the claim stopped holding (valid_to set), no successor
    RETRACTED = "retracted"  # we no longer believe it was ever true (with the reason)
    MERGED = "merged"  # folded into a canonical fact
    CONFLICT_OPENED = "conflict_opened"  # a claim kept, not applied, disputing an established one
    CONFLICT_RESOLVED = "conflict_resolved"  # a dispute decided (the decision is the reason)
    STATE_CHANGED = "state_changed"  # admitted, accepted, re-verified, deprecated, quarantined, released, ...
    FORGOTTEN = "forgotten"  # a tombstone only: the id and when, never the content
    STALE = "stale"  # went stale: a premise it rests on changed (the cause says which)


class BeliefVersion(BaseModel):
    """One version as a change names it: its ids, what it said (None once its fact was forgotten), its valid
    interval and its state."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    version_id: str
    statement: str | None = None
    object: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    state: str | None = None


class BeliefChange(BaseModel):
    """One change of belief, at the known time `at` of the write that made it.

    `before`: the version that stopped being believed (corrected, superseded, ended, retracted, merged, resolved,
    state changed); `after`: what the same fact is believed as from then on (a new version, or for a flag the
    version in its new state); `successor`: another fact that took over (a succession's successor, a merge's
    canonical fact); `against`: the established versions a conflict disputes. A forgotten fact's change names only
    its id and `at`."""

    model_config = ConfigDict(frozen=True)

    kind: ChangeKind
    at: datetime
    fact_id: str
    before: BeliefVersion | None = None
    after: list[BeliefVersion] = Field(default_factory=list)
    successor: BeliefVersion | None = None
    against: list[BeliefVersion] = Field(default_factory=list)
    reason: str | None = None  # a retraction's reason, a state change's, a conflict's decision
    cause: str | None = None  # why it went stale (which premise, which change, the path from it)
    conflict_id: str | None = None


class BeliefDiff(BaseModel):
    """What the store believed differently between known times `known_a` (excluded) and `known_b` (included), as
    the caller may see it, oldest change first."""

    known_a: datetime
    known_b: datetime
    changes: list[BeliefChange] = Field(default_factory=list)


# -- what the repository reads (graph/truth/diff.py), classified by services/truth/diff_rules.py --------------
class Link(BaseModel):
    """A SUPERSEDES edge out of a version: the version it supersedes and how (correction, succession, merge, ...)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    version_id: str
    fact_id: str


class TouchedVersion(BaseModel):
    """A version whose belief began or ended inside the window, its SUPERSEDES edges to versions the caller may see,
    and whether the caller may see an earlier version of its fact (else the version is the fact's first)."""

    model_config = ConfigDict(frozen=True)

    fact: Fact
    supersedes: list[Link] = Field(default_factory=list)
    earlier: bool = False


class FlagRaised(BaseModel):
    """A state flag drawn inside the window on a version: its state, its cause line (and path) and its reason."""

    model_config = ConfigDict(frozen=True)

    fact: Fact
    state: str
    at: datetime
    kind: str | None = None  # the state change's kind (cascade, forget, reverify, ...)
    cause: str | None = None
    reason: str | None = None


class Dispute(BaseModel):
    """One CONFLICTS_WITH edge opened (first drawn) or resolved inside the window."""

    model_config = ConfigDict(frozen=True)

    conflict_id: str
    opened_at: datetime | None = None  # inside the window, else None
    resolved_at: datetime | None = None  # inside the window, else None
    decision: str | None = None
    challenger: Fact
    established: Fact
