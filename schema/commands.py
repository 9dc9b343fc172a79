"""One command model per public operation: the single declaration every surface builds from (DESIGN §10).

`Store` methods, REST routes, MCP tools and CLI commands validate their input with these models, so no surface
retypes a field list. Every time field uses the one `Time` type, which normalises a value once.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, WithJsonSchema

from credo.schema.errors import CredoError, InvalidInput
from credo.schema.sources import MessageRef
from credo.schema.time import parse_point


def normalise_time(value: object) -> object:
    """A time value at its own precision: 'YYYY', 'YYYY-MM', 'YYYY-MM-DD', or an aware UTC instant in ISO text.

    Accepts a date, an aware datetime or ISO text; a naive datetime (or text without an offset) is refused."""
    if value is None or not isinstance(value, str | date | datetime):
        return value  # None stays unknown; other types fail the `str` check with pydantic's message
    try:
        instant, precision = parse_point(value, "time")
    except InvalidInput as exc:
        raise ValueError(exc.rule) from None
    if precision == "year":
        return f"{instant.year:04d}"
    if precision == "month":
        return f"{instant.year:04d}-{instant.month:02d}"
    if precision == "day":
        return instant.date().isoformat()
    return instant.isoformat()


Time = Annotated[
    str, BeforeValidator(normalise_time),
    WithJsonSchema({"type": "string", "description": "YYYY, YYYY-MM, YYYY-MM-DD, or an ISO 8601 instant with an "
                    "offset; precision is kept, naive instants are refused", "examples": ["2024-06-01"]}),
]
"""The one time type: normalised once at the boundary, precision kept, naive datetimes refused."""

Scope = dict[str, str]
ObjectIn = Annotated[Any, WithJsonSchema({"description": "an entity name (text), a number, or a typed literal "
                                          "{type, value}", "anyOf": [{"type": "string"}, {"type": "number"},
                                                                     {"type": "object"}]})]
States = list[str] | str | None
Id = Annotated[str, Field(min_length=1, max_length=200)]


def _message_ref(value: object) -> object:
    if isinstance(value, tuple):
        return dict(zip(("session_id", "index", "generation"), value))
    return value


class Command(BaseModel):
    """Base of every command: unknown fields are refused, so a typo never passes silently."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)


# -- facts and time --------------------------------------------------------------------------------
class AddFact(Command):
    """Record a claim; a conflicting one is kept as `conflicted`, an earlier open-ended one is bounded."""

    subject: str
    predicate: str
    object: ObjectIn
    object_is_entity: bool | None = Field(default=None, description="false: a text object is a literal, not a name")
    valid_from: Time | None = None
    valid_to: Time | None = None
    scope: Scope | None = None
    kind: Literal["episodic", "semantic", "procedural", "relational"] = "semantic"
    statement: str | None = None
    confidence: float | None = None
    sensitivity: str | None = None
    depends_on: list[str] | None = None


class AddFacts(Command):
    """Record many claims in one transaction; each row takes AddFact's fields."""

    rows: list[AddFact] = Field(max_length=10_000)


class CorrectFact(Command):
    """We were wrong about the past: a new version under the same fact id (a version id pins one)."""

    fact_id: Id
    object: ObjectIn = None
    valid_from: Time | None = None
    valid_to: Time | None = None
    scope: Scope | None = None
    statement: str | None = None
    confidence: float | None = None
    sensitivity: str | None = None
    kind: Literal["episodic", "semantic", "procedural", "relational"] | None = None


class SucceedFact(Command):
    """The world changed at `at`: the old fact ends there; the successor starts there."""

    fact_id: Id
    object: ObjectIn
    at: Time
    statement: str | None = None
    scope: Scope | None = None
    confidence: float | None = None
    sensitivity: str | None = None


class EndFact(Command):
    """The claim stopped holding at valid time `at`."""

    fact_id: Id
    at: Time


class RetractFact(Command):
    """We no longer believe it was ever true; the reason is kept."""

    fact_id: Id
    reason: str


class WriteRange(Command):
    """A change for [valid_from, valid_to) only; outside the range the earlier value holds again."""

    subject: str
    predicate: str
    object: ObjectIn
    valid_from: Time
    valid_to: Time
    scope: Scope | None = None
    statement: str | None = None


# -- reading ---------------------------------------------------------------------------------------
class FactsQuery(Command):
    """Versions valid at `valid_at` as believed at `known_at` (both default to now)."""

    subject: str | None = None
    predicate: str | None = None
    object: ObjectIn = None
    valid_at: Time | None = None
    known_at: Time | None = None
    scope: Scope | None = None
    include_undated: bool = False
    states: States = None


class HistoryQuery(Command):
    """Every version of a fact: both intervals and how each ended."""

    fact_id: Id


class ChainQuery(Command):
    """The evolution chain of (subject, predicate) in valid-time order."""

    subject: str
    predicate: str
    known_at: Time | None = None
    scope: Scope | None = None


class WhoQuery(Command):
    """Every relation of an entity at the point, both directions."""

    entity: str
    valid_at: Time | None = None
    known_at: Time | None = None


class HoldersQuery(Command):
    """Who held `predicate object` at the point."""

    predicate: str
    object: ObjectIn
    valid_at: Time | None = None
    known_at: Time | None = None


class PathQuery(Command):
    """How two entities are connected at the point (shortest chain of relations)."""

    a: str
    b: str
    valid_at: Time | None = None
    known_at: Time | None = None
    max_hops: int = Field(default=4, ge=1, le=8)


# -- governance ------------------------------------------------------------------------------------
class DefinePredicate(Command):
    """Say whether a predicate is single- or multi-valued, and its inverse name."""

    name: str
    cardinality: Literal["single", "multi"] = "single"
    inverse: str | None = None


class PredicatesQuery(Command):
    """Predicates this tenant has defined."""


class ConflictsQuery(Command):
    """Writes kept but not applied, awaiting a decision."""

    include_resolved: bool = False


class ResolveConflict(Command):
    """Decide a conflict: succession (at), correction, reject, or split_scope (scope)."""

    conflict_id: Id
    decision: Literal["succession", "correction", "reject", "split_scope"]
    at: Time | None = None
    scope: Scope | None = None
    reason: str | None = None


class MergeEntities(Command):
    """Merge `other` into `keep`, reversibly; `other`'s name becomes an alias."""

    keep: str
    other: str


class UnmergeEntities(Command):
    """Undo the merge of `other`."""

    other: str


# -- provenance and the write gate -----------------------------------------------------------------
class AddSource(Command):
    """Record a document, tool result or observation; its text is immutable."""

    kind: str
    text: str
    title: str | None = None
    uri: str | None = None
    author: str | None = None
    at: Time | None = None
    origin: str | None = None


class MessageInput(Command):
    """One conversation message: position, transport role, origin (who wrote it), author, text, time."""

    index: int
    role: str
    origin: str
    author: str | None = None
    text: str
    at: Time


class IngestMessages(Command):
    """Record conversation messages of one session generation (MCP: add_messages)."""

    session_id: str
    messages: list[Any] = Field(max_length=10_000, json_schema_extra={"items": MessageInput.model_json_schema()})
    generation: int = 1


class Cite(Command):
    """List a source under a fact; its evidence kind is unchanged."""

    fact_id: Id
    source_id: Id
    quote: str | None = None


class Remember(Command):
    """The write gate: record `content` on the word of `quote`, verbatim in one human message of the current turn."""

    session_id: str
    quote: str
    content: str
    category: str | None = None
    replaces: str | None = None
    project: str | None = None
    subject: str | None = None
    predicate: str | None = None
    object: ObjectIn = None
    valid_from: Time | None = None
    valid_to: Time | None = None
    scope: Scope | None = None
    depends_on: list[str] | None = None
    generation: int | None = None
    since: int | None = None


class Accept(Command):
    """Record that a human message accepted an agent's conclusion."""

    fact_id: Id
    message: Annotated[Any, BeforeValidator(_message_ref), WithJsonSchema(MessageRef.model_json_schema())] = Field(
        description="the accepting message: {session_id, index[, generation]}")


class Extract(Command):
    """Extract candidates from the session's unconsumed messages (the server's configured extractor)."""

    session_id: str
    segment_size: int = Field(default=20, ge=1, le=1000)


class Admit(Command):
    """Admit a candidate as current knowledge, naming who (or which policy) admits it."""

    fact_id: Id
    by: str


class Reject(Command):
    """Reject a candidate; it is kept with the reason and never served."""

    fact_id: Id
    reason: str


class MergeFacts(Command):
    """One canonical fact from several; evidence is the weakest of the inputs."""

    fact_ids: list[str] = Field(max_length=1000)
    statement: str


class WhyQuery(Command):
    """Why the fact is held (as believed at `known_at`): evidence, quotes, acceptance, premises, supersessions."""

    fact_id: Id
    known_at: Time | None = None


class ExportProv(Command):
    """The fact's provenance as a W3C PROV-JSON document."""

    fact_id: Id


# -- premises, summaries, cascade ------------------------------------------------------------------
class Justify(Command):
    """Add a justification of a fact (premises ANDed; several justifications ORed)."""

    fact_id: Id
    premises: list[str] = Field(max_length=1000)
    valid_from: Time | None = None
    valid_to: Time | None = None


class JustificationsQuery(Command):
    """A fact's justifications believed at known_at (default now), each saying whether it holds."""

    fact_id: Id
    known_at: Time | None = None


class AddSummary(Command):
    """Record a derived text with its verifying trace (with a summarizer, `text` is the topic)."""

    text: str
    derived_from: list[str] = Field(max_length=10_000)
    topic: str | None = None


class Rebuild(Command):
    """Re-check a summary's trace (green again if unchanged) or re-run the summarizer."""

    summary_id: Id


class SummariesQuery(Command):
    """Summaries believed at known_at: only served (green) ones unless `states` says otherwise."""

    known_at: Time | None = None
    states: States = None


class SummaryQuery(Command):
    """One summary as believed at known_at (default now), in whatever state."""

    summary_id: Id
    known_at: Time | None = None


class Reverify(Command):
    """Close a re-verification: holds, lapsed (no longer applies because ...) or retracted."""

    fact_id: Id
    outcome: Literal["holds", "lapsed", "retracted"] = "holds"
    evidence: list[str] | str | None = None
    note: str | None = None


class StaleQuery(Command):
    """Everything awaiting re-verification or a rebuild, oldest first."""


C = TypeVar("C", bound=Command)


def build(model: type[C], **fields: Any) -> C:
    """Validate `fields` with `model`; the first broken rule becomes one InvalidInput naming the field."""
    try:
        return model(**fields)
    except ValidationError as exc:
        raise invalid_input(exc) from None
    except TypeError as exc:  # e.g. an unexpected keyword from Python
        raise InvalidInput(model.__name__, str(exc)) from None


def invalid_input(exc: ValidationError) -> CredoError:
    """One InvalidInput from pydantic's errors: the first error's location and message."""
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "input"
    message = str(first["msg"]).removeprefix("Value error, ")
    return InvalidInput(field, message)


def fields_of(command: Command, *, drop: tuple[str, ...] = ()) -> dict[str, Any]:
    """The command's fields as keyword arguments (for the service call)."""
    return {name: getattr(command, name) for name in type(command).model_fields if name not in drop}


def given(command: Command, *, drop: tuple[str, ...] = ()) -> dict[str, Any]:
    """Only the fields the caller set (for partial changes such as a correction)."""
    return {name: getattr(command, name) for name in command.model_fields_set if name not in drop}
