"""One command model per public operation: the single declaration every surface builds from (DESIGN §10).

`Store` methods, REST routes, MCP tools and CLI commands validate their input with these models, so no surface
retypes a field list. Every time field uses the one `Time` type, which normalises a value once.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, WithJsonSchema

from credo.schema.behalf import OnBehalfOf
from credo.schema.command_base import (  # noqa: F401 - re-exported: every surface imports them from here
    Command,
    Confidence,
    Generation,
    Id,
    IdList,
    Int,
    Name,
    ObjectIn,
    Position,
    Scope,
    SessionId,
    States,
    Text,
    Time,
    Uri,
    build,
    bounded_value,
    fields_of,
    given,
    invalid_input,
    normalise_time,
)
from credo.schema.cascade import Outcome
from credo.schema.facts import Cardinality, Decision, FactCreate, MemoryKind, validated
from credo.schema.sources import MessageRef
from credo.schema.uri import Uri


def _message_ref(value: object) -> object:
    if isinstance(value, tuple):
        return dict(zip(("session_id", "index", "generation"), value))
    return value


# -- facts and time --------------------------------------------------------------------------------
class AddFact(Command):
    """Record a claim; a conflicting one is kept as `conflicted`, an earlier open-ended one is bounded."""

    subject: Name
    predicate: Name
    object: ObjectIn
    object_is_entity: bool | None = Field(default=None, description="false: a text object is a literal, not a name")
    valid_from: Time | None = None
    valid_to: Time | None = None
    scope: Scope | None = None
    kind: MemoryKind = "semantic"
    statement: Text | None = None
    confidence: Confidence | None = None
    sensitivity: Name | None = None
    depends_on: IdList | None = None
    operational: bool = Field(default=False, description="a rule that can change production: it stays a hypothesis "
                              "until a direct source (tool_result, code, test or log) is cited under it")

    def create(self) -> FactCreate:
        """The claim as the write path takes it (its premises, `depends_on`, travel beside it)."""
        return validated(FactCreate, {**fields_of(self, drop=("depends_on",)), "scope": self.scope or {}})


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
    statement: Text | None = None
    confidence: Confidence | None = None
    sensitivity: Name | None = None
    kind: MemoryKind | None = None


class SucceedFact(Command):
    """The world changed at `at`: the old fact ends there; the successor starts there."""

    fact_id: Id
    object: ObjectIn
    at: Time
    statement: Text | None = None
    scope: Scope | None = None
    confidence: Confidence | None = None
    sensitivity: Name | None = None


class EndFact(Command):
    """The claim stopped holding at valid time `at`."""

    fact_id: Id
    at: Time


class RetractFact(Command):
    """We no longer believe it was ever true; the reason is kept."""

    fact_id: Id
    reason: Text


class WriteRange(Command):
    """A change for [valid_from, valid_to) only; outside the range the earlier value holds again."""

    subject: Name
    predicate: Name
    object: ObjectIn
    valid_from: Time
    valid_to: Time
    scope: Scope | None = None
    statement: Text | None = None


# -- reading ---------------------------------------------------------------------------------------
class FactsQuery(Command):
    """Versions valid at `valid_at` as believed at `known_at` (both default to now)."""

    subject: Name | None = None
    predicate: Name | None = None
    object: ObjectIn = None
    valid_at: Time | None = None
    known_at: Time | None = None
    scope: Scope | None = None
    include_undated: bool = True
    states: States = None


class HistoryQuery(Command):
    """Every version of a fact: both intervals and how each ended."""

    fact_id: Id


class ChainQuery(Command):
    """The evolution chain of (subject, predicate) in valid-time order."""

    subject: Name
    predicate: Name
    known_at: Time | None = None
    scope: Scope | None = None


class WhoQuery(Command):
    """Every relation of an entity at the point, both directions."""

    entity: Name
    valid_at: Time | None = None
    known_at: Time | None = None


class HoldersQuery(Command):
    """Who held `predicate object` at the point."""

    predicate: Name
    object: ObjectIn
    valid_at: Time | None = None
    known_at: Time | None = None


class PathQuery(Command):
    """How two entities are connected at the point (shortest chain of relations)."""

    a: Name
    b: Name
    valid_at: Time | None = None
    known_at: Time | None = None
    max_hops: Int = Field(default=4, ge=1, le=8)


# -- governance ------------------------------------------------------------------------------------
class DefinePredicate(Command):
    """Say whether a predicate is single- or multi-valued, and its inverse name."""

    name: Name
    cardinality: Cardinality = "single"
    inverse: Name | None = None


class PredicatesQuery(Command):
    """Predicates this tenant has defined."""


class ConflictsQuery(Command):
    """Writes kept but not applied, awaiting a decision."""

    include_resolved: bool = False


class ResolveConflict(Command):
    """Decide a conflict: succession (at), correction, reject, or split_scope (scope)."""

    conflict_id: Id
    decision: Decision
    at: Time | None = None
    scope: Scope | None = None
    reason: Text | None = None


class MergeEntities(Command):
    """Merge `other` into `keep`, reversibly; `other`'s name becomes an alias."""

    keep: Name
    other: Name


class UnmergeEntities(Command):
    """Undo the merge of `other`."""

    other: Name


# -- provenance and the write gate -----------------------------------------------------------------
class AddSource(Command):
    """Record a document, tool result, observation, code, test or log; its text is immutable (a tool result, code,
    test or log is direct evidence for an operational rule)."""

    kind: Name
    text: Text
    title: Name | None = None
    uri: Uri | None = None
    author: Name | None = None
    at: Time | None = None
    origin: Name | None = None


class MessageInput(Command):
    """One conversation message: position, transport role, origin (who wrote it), author, text, time."""

    index: Position
    role: Name
    origin: Name
    author: Name | None = None
    text: Text
    at: Time


class IngestMessages(Command):
    """Record conversation messages of one session generation (MCP: add_messages)."""

    session_id: SessionId
    messages: list[Any] = Field(max_length=10_000, json_schema_extra={"items": MessageInput.model_json_schema()})
    generation: Generation = 1


class Cite(Command):
    """List a source under a fact; its evidence kind is unchanged."""

    fact_id: Id
    source_id: Id
    quote: Text | None = None


class Remember(Command):
    """The write gate: record `content` on the word of `quote`, verbatim in one human message of the current turn."""

    session_id: SessionId
    quote: Text
    content: Text
    category: Name | None = None
    replaces: Id | None = None
    project: Name | None = None
    subject: Name | None = None
    predicate: Name | None = None
    object: ObjectIn = None
    valid_from: Time | None = None
    valid_to: Time | None = None
    scope: Scope | None = None
    depends_on: IdList | None = None
    generation: Generation | None = None
    since: Position | None = None
    operational: bool = Field(default=False, description="a rule that can change production: a conversation alone "
                              "leaves it a hypothesis until a direct source (tool_result, code, test or log) is cited")


class Accept(Command):
    """Record that a human message accepted an agent's conclusion."""

    fact_id: Id
    message: Annotated[Any, BeforeValidator(_message_ref), AfterValidator(bounded_value),
                       WithJsonSchema(MessageRef.model_json_schema())] = Field(
        description="the accepting message: {session_id, index[, generation]}")


class Extract(Command):
    """Extract candidates from the session's unconsumed messages (the server's configured extractor)."""

    session_id: SessionId
    segment_size: Int = Field(default=20, ge=1, le=1000)


class Admit(Command):
    """Admit a candidate as current knowledge, naming who (or which policy) admits it."""

    fact_id: Id
    by: OnBehalfOf


class Reject(Command):
    """Reject a candidate; it is kept with the reason and never served."""

    fact_id: Id
    reason: Text


class MergeFacts(Command):
    """One canonical fact from several; evidence is the weakest of the inputs."""

    fact_ids: list[Id] = Field(max_length=1000)
    statement: Text


class WhyQuery(Command):
    """Why the fact is held (as believed at `known_at`): evidence, quotes, acceptance, premises, supersessions."""

    fact_id: Id
    known_at: Time | None = None


class ExportProv(Command):
    """The fact's provenance as a W3C PROV-JSON document (as known at `known_at`, like why)."""

    fact_id: Id
    known_at: Time | None = None


# -- premises, summaries, cascade ------------------------------------------------------------------
class Justify(Command):
    """Add a justification of a fact (premises ANDed; several justifications ORed)."""

    fact_id: Id
    premises: list[Id] = Field(max_length=1000)
    valid_from: Time | None = None
    valid_to: Time | None = None


class JustificationsQuery(Command):
    """A fact's justifications believed at known_at (default now), each saying whether it holds."""

    fact_id: Id
    known_at: Time | None = None


class AddSummary(Command):
    """Record a derived text with its verifying trace (with a summarizer, `text` is the topic)."""

    text: Text
    derived_from: list[Id] = Field(max_length=10_000)
    topic: Text | None = None


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
    outcome: Outcome = "holds"
    evidence: Annotated[list[Id], Field(max_length=1000)] | Id | None = None
    note: Text | None = None


class Maintain(Command):
    """The scheduled sweep (idempotent): flag stale what rests on ended premises, move memories between tiers, and
    mark episodic memories past the tenant's TTL as due for forgetting."""

    episodic_ttl_days: Int | None = Field(
        default=None, ge=0, le=36_500, description="first set the tenant's episodic TTL in days (0: no roll-off, "
        "at most 100 years); kept for later sweeps")


class StaleQuery(Command):
    """Everything awaiting re-verification or a rebuild, oldest first."""
