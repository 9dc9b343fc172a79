"""Pure temporal and governance rules over schema models: conflicts, bounds and range splits."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol, TypeVar

from credo.schema.facts import Cardinality, Fact
from credo.schema.lifecycle import SERVED
from credo.schema.time import overlaps

MULTI_VALUED_DEFAULTS = frozenset(
    {
        "knows", "member_of", "likes", "uses", "works_with", "friend_of", "related_to", "speaks", "has_skill",
        "reports_to_dotted", "collaborates_with", "participates_in", "has_member", "tagged",
    }
)


def default_cardinality(predicate: str) -> Cardinality:
    """Cardinality of a predicate nobody defined: multi for relation-like names, single otherwise."""
    return "multi" if predicate in MULTI_VALUED_DEFAULTS else "single"


class Version(Protocol):
    """What the conflict rule reads of a version: a `Fact`, or the slim `Held` of a bulk write."""

    @property
    def version_id(self) -> str: ...
    @property
    def object_key(self) -> tuple[str, str]: ...
    @property
    def scope(self) -> dict[str, str]: ...
    @property
    def state(self) -> str: ...
    @property
    def known_to(self) -> datetime | None: ...
    @property
    def valid_from(self) -> datetime | None: ...
    @property
    def valid_from_precision(self) -> str | None: ...
    @property
    def valid_to(self) -> datetime | None: ...


V = TypeVar("V", bound=Version)


@dataclass(frozen=True)
class Held:
    """The fields of a believed-now version the conflict rule needs, without the rest of the Fact."""

    fact_id: str
    version_id: str
    object_key: tuple[str, str]
    scope: dict[str, str]
    state: str
    valid_from: datetime | None
    valid_from_precision: str | None
    valid_to: datetime | None
    known_to: datetime | None = None
    sensitivity: str | None = None  # whether a version it bounds may name it (services/core/clearance.py `bound_by`)

    @classmethod
    def of(cls, fact: Fact) -> Held:
        """The slim form of a Fact."""
        return cls(fact.fact_id, fact.version_id, fact.object.key, fact.scope, fact.state, fact.valid_from,
                   fact.valid_from_precision, fact.valid_to, fact.known_to, fact.sensitivity)


@dataclass(frozen=True)
class WriteDecision:
    """What a new version may do against what is established (`bounded_by` / `against` are the versions given)."""

    outcome: Literal["admit", "bound", "conflict", "duplicate"]
    bound_to: datetime | None = None
    bounded_by: Any = None
    against: list[Any] = field(default_factory=list)


def established(facts: list[V], scope: dict[str, str]) -> list[V]:
    """Believed-now served versions in the same scope: what a new write must respect."""
    return [f for f in facts if f.known_to is None and f.state in SERVED and f.scope == scope]


def decide_write(
    *,
    object_key: tuple[str, str],
    valid_from: datetime | None,
    valid_to: datetime | None,
    cardinality: Cardinality,
    current: list[V],
) -> WriteDecision:
    """Apply DESIGN §4: add history freely; changing an established value needs an explicit act.

    An open-ended write starting before every established version it overlaps is bounded at the earliest
    such start (it said nothing about its end). Any other overlap with a different object is a conflict.
    The same object over a covering interval is a duplicate (it reinforces, it does not add a version).
    """
    touching = [f for f in current if overlaps(valid_from, valid_to, f.valid_from, f.valid_to)]
    same = [f for f in touching if f.object_key == object_key]
    for f in same:
        if _covers(f, valid_from, valid_to):
            return WriteDecision("duplicate", against=[f])
    if cardinality == "multi":
        return WriteDecision("admit")
    different = [f for f in touching if f.object_key != object_key]
    if not different:
        return WriteDecision("admit")
    if valid_to is None and valid_from is not None:
        later = [f for f in different if f.valid_from is not None and f.valid_from > valid_from]
        if len(later) == len(different):
            first = min(later, key=lambda f: f.valid_from)
            return WriteDecision("bound", bound_to=first.valid_from, bounded_by=first)
    return WriteDecision("conflict", against=different)


def _covers(fact: Version, valid_from: datetime | None, valid_to: datetime | None) -> bool:
    if valid_from is None:
        starts_ok = fact.valid_from is None
    else:
        starts_ok = fact.valid_from is not None and fact.valid_from <= valid_from
    ends_ok = fact.valid_to is None or (valid_to is not None and valid_to <= fact.valid_to)
    return starts_ok and ends_ok


@dataclass(frozen=True)
class Piece:
    """A remaining part of a split version: same claim, narrower valid interval."""

    source: Fact
    valid_from: datetime | None
    valid_to: datetime | None
    from_precision: str | None
    to_precision: str | None


def split_outside(
    facts: list[Fact], start: datetime | None, end: datetime | None, start_precision: str | None = "instant",
    end_precision: str | None = "instant",
) -> tuple[list[Fact], list[Piece]]:
    """Versions overlapping [start, end), and the pieces of them that lie outside it (XTDB FOR PORTION OF).
    A None start or end is unbounded on that side (nothing remains there)."""
    hit = [f for f in facts if overlaps(f.valid_from, f.valid_to, start, end)]
    pieces: list[Piece] = []
    for f in hit:
        if start is not None and (f.valid_from is None or f.valid_from < start):
            pieces.append(Piece(f, f.valid_from, start, f.valid_from_precision, start_precision))
        if end is not None and (f.valid_to is None or f.valid_to > end):
            pieces.append(Piece(f, end, f.valid_to, end_precision, f.valid_to_precision))
    return hit, pieces
