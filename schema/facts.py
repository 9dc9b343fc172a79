"""Fact shapes: what a caller sends (`FactCreate`), what the store returns (`Fact`), and reports."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cache
from collections.abc import Iterable
from typing import Any, Generic, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, computed_field, field_validator

from credo.schema.cascade import CascadeReport
from credo.schema.errors import InvalidInput
from credo.schema.forget import Tombstone
from credo.schema.lifecycle import State
from credo.schema.preferences import PreferenceDrift
from credo.schema.literals import (  # noqa: F401 - re-exported: callers import the object shapes from here too
    LITERAL_TYPES,
    ObjectType,
    ObjectValue,
    literal,
    number_of,
    number_text,
    object_in,
    wire_object,
)
from credo.schema.names import LITERAL_MAX, check_scope, clean_name, clean_text, normalise_predicate
from credo.schema.time import Precision, parse_point, render

MemoryKind = Literal["episodic", "semantic", "procedural", "relational"]
MEMORY_KINDS: tuple[MemoryKind, ...] = get_args(MemoryKind)
Cardinality = Literal["single", "multi"]
CARDINALITIES: tuple[Cardinality, ...] = get_args(Cardinality)
Decision = Literal["succession", "correction", "reject", "split_scope"]
"""How a conflict is resolved (resolve_conflict)."""
DECISIONS: tuple[Decision, ...] = get_args(Decision)


class Evidence(StrEnum):
    """Who vouched for a claim, weakest first."""

    UNKNOWN = "unknown"
    ACCEPTED = "accepted"
    STATED = "stated"


STATE_VALUES = frozenset(s.value for s in State)

EVIDENCE_ORDER = [Evidence.UNKNOWN, Evidence.ACCEPTED, Evidence.STATED]


def weakest(kinds: list[str]) -> Evidence:
    """The weakest evidence of several inputs: merging never strengthens evidence."""
    if not kinds:
        raise InvalidInput("evidence", "at least one input is required")
    return min((Evidence(k) for k in kinds), key=EVIDENCE_ORDER.index)


class Epistemic(StrEnum):
    """Whether a claim is a hypothesis or confirmed."""

    HYPOTHESIS = "hypothesis"
    CONFIRMED = "confirmed"


class EndKind(StrEnum):
    """How a version stopped being believed (its known_to was closed)."""

    CORRECTION = "correction"
    SUCCESSION = "succession"
    END = "end"
    RETRACTION = "retraction"
    RANGE_WRITE = "range_write"
    RESOLUTION = "resolution"
    STATE_CHANGE = "state_change"
    MERGE = "merge"
    FORGOTTEN = "forgotten"


def scope_key(scope: dict[str, str] | None) -> str:
    """Canonical text of a scope, so equal scopes compare equal in the graph."""
    if not scope:
        return "{}"
    return json.dumps(dict(sorted((scope or {}).items())), separators=(",", ":"), ensure_ascii=False)


def validated(model: type[BaseModel], fields: dict[str, Any]) -> Any:
    """Build `model` from `fields`, turning pydantic's errors into one InvalidInput naming the field and rule."""
    try:
        return model(**fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InvalidInput(str(first["loc"][0]) if first["loc"] else model.__name__, first["msg"]) from None


class VersionContent(BaseModel):
    """What a version says beside its claim and times, checked alike on every write path (add, correct, succeed,
    range writes, remember, merge, resolution). A statement of None means "write one from the claim"."""

    model_config = ConfigDict(extra="forbid")

    scope: dict[str, str] = Field(default_factory=dict)
    kind: MemoryKind = "semantic"
    statement: str | None = None
    quote: str | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    sensitivity: str | None = None

    @field_validator("scope", mode="before")
    @classmethod
    def _scope(cls, value: Any) -> dict[str, str]:
        return check_scope(value)

    @field_validator("statement", mode="before")
    @classmethod
    def _statement(cls, value: Any) -> str | None:
        return None if value is None else clean_text(value, "statement")

    @field_validator("quote", mode="before")
    @classmethod
    def _quote(cls, value: Any) -> str | None:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        return clean_text(value, "quote")

    @field_validator("sensitivity", mode="before")
    @classmethod
    def _sensitivity(cls, value: Any) -> str | None:
        return None if value is None else clean_name(value, "sensitivity")

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, value: Any) -> Any:
        if isinstance(value, bool) or (value is not None and not isinstance(value, int | float)):
            raise InvalidInput("confidence", f"must be a number between 0 and 1, got {type(value).__name__}")
        return value


class FactCreate(VersionContent):
    """A new claim as a caller states it; validated before anything is written."""

    subject: str
    predicate: str
    object: Any
    object_is_entity: bool | None = None
    valid_from: Any = None
    valid_to: Any = None
    epistemic: Epistemic = Epistemic.CONFIRMED
    evidence: Evidence = Evidence.UNKNOWN
    operational: bool = False  # a rule that can change production: it needs direct evidence (DESIGN §11)

    @field_validator("subject", mode="before")
    @classmethod
    def _subject(cls, value: Any) -> str:
        return clean_name(value, "subject")

    @field_validator("predicate", mode="before")
    @classmethod
    def _predicate(cls, value: Any) -> str:
        return normalise_predicate(value)

    @field_validator("object", mode="before")
    @classmethod
    def _object(cls, value: Any) -> Any:
        if value is None:
            raise InvalidInput("object", "name an entity or give a literal (text, number or date)")
        value = object_in(value)
        if isinstance(value, str) and len(value) > LITERAL_MAX:  # an entity name is held to NAME_MAX when resolved
            raise InvalidInput("object", f"must be at most {LITERAL_MAX} characters (got {len(value)})")
        return value

    def bounds(self) -> tuple[datetime | None, Precision | None, datetime | None, Precision | None]:
        """Parsed valid-time bounds; refuses an empty or inverted interval."""
        vf, vfp = (None, None) if self.valid_from is None else parse_point(self.valid_from, "valid_from")
        vt, vtp = (None, None) if self.valid_to is None else parse_point(self.valid_to, "valid_to")
        check_interval(vf, vt)
        return vf, vfp, vt, vtp


def check_interval(valid_from: datetime | None, valid_to: datetime | None) -> None:
    """Refuse valid_to <= valid_from (intervals are half-open and must not be empty)."""
    if valid_from is not None and valid_to is not None and valid_to <= valid_from:
        raise InvalidInput("valid_to", f"must be later than valid_from ({valid_to.isoformat()} <= {valid_from.isoformat()})")


class Unreadable(BaseModel):
    """A stored version a read skipped because its row fails validation: which one, which field, and why."""

    model_config = ConfigDict(frozen=True)

    version_id: str | None
    fact_id: str | None
    field: str
    reason: str

    def text(self) -> str:
        """One line naming the version and the broken field."""
        return f"{self.version_id} (fact {self.fact_id}): {self.field}: {self.reason}"


class Fact(BaseModel):
    """One version of one claim, with both time intervals."""

    model_config = ConfigDict(frozen=True)

    tenant: str
    fact_id: str
    version_id: str
    subject: str
    subject_id: str
    predicate: str
    object: ObjectValue
    object_name: str
    statement: str
    quote: str | None = None
    scope: dict[str, str] = Field(default_factory=dict)
    kind: MemoryKind = "semantic"
    evidence: Evidence = Evidence.UNKNOWN
    epistemic: Epistemic = Epistemic.CONFIRMED
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    sensitivity: str | None = None
    state: str = "active"
    valid_from: datetime | None = None
    valid_from_precision: Precision | None = None
    valid_to: datetime | None = None
    valid_to_precision: Precision | None = None
    known_from: datetime
    known_to: datetime | None = None
    verified_at: datetime | None = None
    ended_by: EndKind | None = None
    end_reason: str | None = None
    bounded_by: str | None = None
    stale_cause: str | None = None
    lapse_reason: str | None = None
    disputed: bool = False
    # a rule that can change production (DESIGN §11): without a direct source (a tool result, code, test or log) it
    # is held as a hypothesis; `evidence_hold` says the hold, not a hedge, is what keeps it one (a direct source
    # cited under it confirms it: services/gate/sources.py `cite`)
    operational: bool = False
    evidence_hold: bool = False
    # dedup at write: statements of near-duplicates that joined this claim, and how many independent sources
    # (distinct authors / documents) back it
    aliases: tuple[str, ...] = ()
    independent_sources: int = 0
    # set on every version of a forgotten fact: its content is gone and reads show this instead
    tombstone: Tombstone | None = None
    # set only on the Fact a write returns when that write stopped believing a version (its cascade ran)
    cascade: CascadeReport | None = Field(default=None, exclude=True)
    # set only on a version whose stored row failed validation: reads skip it and name it, writes may repair it
    unreadable: Unreadable | None = Field(default=None, exclude=True)
    # the write plan that admitted this version (schema/policy.py WritePlan, as compact JSON): shown by `why`
    write_plan: str | None = Field(default=None, exclude=True)
    # set on a candidate that waits for a person's decision: "consent" (a surfaced write, DESIGN §9), never served
    # until `consent` accepts it
    awaiting: Literal["consent"] | None = None
    # set on a candidate correction awaiting consent (`remember(..., replaces=...)` under a surfaced policy): the fact
    # it would correct once accepted, which serves unchanged meanwhile
    replaces: str | None = None

    @classmethod
    def trusted(cls, **values: Any) -> "Fact":
        """A Fact from values already validated (a command model, resolved entities, the store's clock), built
        without a second validation; the fields not given take their defaults (model_construct resolved and
        deep-copied each default per field, a measurable share of a bulk write's client time)."""
        fact = cls.__new__(cls)
        data = {**_shared_defaults(cls), **values}
        for name, factory in _factories(cls).items():
            if name not in values:
                data[name] = factory()
        object.__setattr__(fact, "__dict__", data)
        object.__setattr__(fact, "__pydantic_fields_set__", set(values))
        object.__setattr__(fact, "__pydantic_extra__", None)
        object.__setattr__(fact, "__pydantic_private__", None)
        return fact

    @field_validator("state")
    @classmethod
    def _state(cls, value: str) -> str:
        if value not in STATE_VALUES:
            raise ValueError(f"unknown lifecycle state {value!r}")
        return value

    @property
    def object_key(self) -> tuple[str, str]:
        """The identity the conflict rule compares objects by (`ObjectValue.key`)."""
        return self.object.key

    @property
    def value(self) -> Any:
        """The object as a Python value (entity name for entities)."""
        return self.object_name if self.object.type == "entity" else self.object.typed()

    @computed_field  # type: ignore[prop-decorator]
    @property
    def undated(self) -> bool:
        """Whether the start of validity is unknown (it may hold at a point; nobody knows since when)."""
        return self.valid_from is None

    def valid_text(self) -> str:
        """Valid interval at its own precision, e.g. '[2019-11-25, …)'."""
        return f"[{render(self.valid_from, self.valid_from_precision)}, {render(self.valid_to, self.valid_to_precision)})"

    def known_text(self) -> str:
        """Known interval, e.g. '[2025-01-01T…, …)'."""
        return f"[{render(self.known_from)}, {render(self.known_to)})"


class Listing(list):
    """A read's answer (a plain list) plus `unreadable`: the stored versions it skipped, each named; a read asked for
    one `Window` of its answer also says where the next one starts (`windowed`, `next_offset`: None at the end)."""

    def __init__(self, items: Any = (), unreadable: Any = ()) -> None:
        super().__init__(items)
        self.unreadable: list[Unreadable] = list(unreadable)
        self.windowed = False
        self.next_offset: int | None = None
        self.next_after: str | list[str] | None = None  # a read asked for a page `After` a key (schema/pages.py)


@dataclass(frozen=True)
class Window:
    """One page of a listing, cut in its query: pass over `offset` rows of the ordered answer (an offset a previous
    window's `next_offset` gave), return at most `limit` items."""

    offset: int
    limit: int


CONTENT_FIELDS = ("scope", "kind", "statement", "quote", "confidence", "sensitivity")


def check_version(fact: Fact) -> Fact:
    """A version about to be written, validated like add_fact's input (content, names, every stored field).

    Revisions build versions by copying, which validates nothing; this is the check they all go through, so a
    bad value is refused as InvalidInput naming the field, and a damaged version is only rewritten once fixed."""
    content = validated(VersionContent, {k: getattr(fact, k) for k in CONTENT_FIELDS})
    clean_text(fact.statement, "statement")
    clean_name(fact.subject, "subject")
    normalise_predicate(fact.predicate)
    if fact.object.type == "entity":
        clean_name(fact.object_name, "object")
    fields = {**dict(fact), **content.model_dump(), "object": dict(fact.object), "unreadable": None, "cascade": None}
    return validated(Fact, fields).model_copy(update={"cascade": fact.cascade})


class Conflict(BaseModel):
    """A write kept, not applied: the challenger waits while the established version is served."""

    model_config = ConfigDict(frozen=True)

    conflict_id: str
    status: Literal["open", "resolved"]
    challenger: Fact
    established: Fact
    opened_at: datetime
    decision: str | None = None
    # a preference drift item (services/preferences/drift.py) instead of a dispute: both sides are the preference's
    # version; left out of a dispute's serialized answer, so the disputes' shape is what it was
    drift: PreferenceDrift | None = Field(default=None, exclude_if=lambda v: v is None)


class PredicateDef(BaseModel):
    """How a predicate behaves: single- or multi-valued, and its inverse name."""

    model_config = ConfigDict(frozen=True)

    name: str
    cardinality: Cardinality = "single"
    inverse: str | None = None


class Relation(BaseModel):
    """One relation of an entity at a point: the fact plus the direction it is read in."""

    model_config = ConfigDict(frozen=True)

    direction: Literal["out", "in"]
    predicate: str
    other: str
    fact: Fact
    weak: bool = False  # asserted once by one tool call, with no other source (DESIGN §9): retrieval says so

    @computed_field  # type: ignore[prop-decorator]
    @property
    def undated(self) -> bool:
        """Whether the relation's start is unknown."""
        return self.fact.undated


class PathStep(BaseModel):
    """One hop of a connection between two entities."""

    model_config = ConfigDict(frozen=True)

    source: str
    predicate: str
    target: str
    fact: Fact

    @computed_field  # type: ignore[prop-decorator]
    @property
    def undated(self) -> bool:
        """Whether this hop rests on a relation whose start is unknown."""
        return self.fact.undated


Item = TypeVar("Item", Fact, Relation)


class AsOf(Listing, Generic[Item]):
    """An as-of read's answer: a list holding the dated answer first, then the undated items apart after it.

    Every item says whether it is `undated` (its start is unknown: it may hold at the point, nobody knows since
    when); `.dated` and `.undated` give the two parts; `.unreadable` names stored versions skipped (see Listing).
    `.answer()` is the model REST, MCP and the Client send (`AsOfAnswer`), whose `.as_of()` gives this list back.
    """

    def __init__(self, items: Iterable[Item] = (), unreadable: Any = None) -> None:
        if unreadable is None:
            unreadable = getattr(items, "unreadable", ())
        items = list(items)
        super().__init__([i for i in items if not i.undated] + [i for i in items if i.undated], unreadable)

    @property
    def dated(self) -> list[Item]:
        """The dated answer: items whose valid interval is known to contain the point."""
        return [i for i in self if not i.undated]

    @property
    def undated(self) -> list[Item]:
        """Items whose start is unknown and that may hold at the point (believed then, not ended before it)."""
        return [i for i in self if i.undated]

    def answer(self, next_cursor: str | None = None) -> AsOfAnswer[Item]:
        """This answer as every surface sends it (REST, MCP, the Client): dated and undated in two fields."""
        return AsOfAnswer(items=self.dated, undated=self.undated, unreadable=self.unreadable, next_cursor=next_cursor)


class AsOfAnswer(BaseModel, Generic[Item]):
    """An as-of read's answer as REST, MCP and the Client send it: the dated answer, apart from it the undated items
    (their start is unknown: they may hold at the point, nobody knows since when), and the stored versions skipped.
    Over REST it is one page of the answer (`next_cursor` null on the last); the Store answers the `AsOf` list."""

    items: list[Item] = Field(description="the dated answer: items whose valid interval is known to contain the point")
    undated: list[Item] = Field(default_factory=list, description="items whose start is unknown and that may hold "
                                "at the point (believed then, not ended before it), kept apart from the answer")
    unreadable: list[Unreadable] = Field(default_factory=list, description="stored versions the read skipped "
                                         "because their row fails validation")
    next_cursor: str | None = Field(default=None, description="REST: the cursor of the next page (null on the last)")

    def as_of(self) -> AsOf[Item]:
        """The Store's answer: the dated items, then the undated ones after them, the skipped versions named."""
        return AsOf(self.items + self.undated, self.unreadable)


@cache
def _shared_defaults(model: type[BaseModel]) -> dict[str, Any]:
    """The immutable defaults of a model's fields (those without a default factory), in field order."""
    return {name: None if f.default_factory is not None else f.get_default()
            for name, f in model.model_fields.items() if not f.is_required()}


@cache
def _factories(model: type[BaseModel]) -> dict[str, Any]:
    """The default factories of a model's fields (a fresh value per model)."""
    return {name: f.default_factory for name, f in model.model_fields.items() if f.default_factory is not None}
