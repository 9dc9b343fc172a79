"""Source shapes: messages as ingested (`MessageIn`), stored sources (`Source`), and pointers (`MessageRef`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from credo.schema.command_base import Generation, Position, SessionId
from credo.schema.forget import Tombstone
from credo.schema.names import NAME_MAX, TEXT_MAX
from credo.schema.time import parse_point, to_utc

SourceKind = Literal["message", "document", "tool_result", "observation", "code", "test", "log"]

# Direct evidence (DESIGN §11, evidence by consequence): what a tool, the code, a test or a log shows, as a source of
# that kind. A message whose origin is `tool_result` is a tool's own output and counts as a tool result; a human's
# message, an agent's conclusion, a document or an observation is not direct evidence.
DIRECT_KINDS: tuple[str, ...] = ("tool_result", "code", "test", "log")
DIRECT_ORIGINS: tuple[str, ...] = ("tool_result",)


def is_direct(kind: str | None, origin: str | None = None) -> bool:
    """Whether a source of this kind (and origin, for a message) is direct evidence for an operational rule."""
    return kind in DIRECT_KINDS or (kind == "message" and origin in DIRECT_ORIGINS)


def is_tool_call(kind: str | None, origin: str | None = None) -> bool:
    """Whether a source is one tool call's output: a tool_result, or a message whose origin is tool_result."""
    return kind == "tool_result" or (kind == "message" and origin in DIRECT_ORIGINS)

# A message's origin says who wrote it; its role is only transport (DESIGN §3).
HUMAN_ORIGINS: frozenset[str] = frozenset({"human_input", "delivered_interjection"})
NON_HUMAN_ORIGINS: frozenset[str] = frozenset({
    "agent", "tool_result", "task_result", "scheduled_trigger", "wake_notification", "component_template",
    "quarantined_input", "system_event",
})
ORIGINS: frozenset[str] = HUMAN_ORIGINS | NON_HUMAN_ORIGINS


def _instant_text(value: Any) -> Any:
    """A message's time as an aware datetime or an ISO 8601 instant text with an offset, never a number."""
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str):
        raise ValueError(f"must be a time text (ISO 8601 with an offset, e.g. 2024-05-01T09:00:00+00:00), "
                         f"got {type(value).__name__}")
    if len(value) > 64:
        raise ValueError("must be a time text (ISO 8601 with an offset), at most 64 characters")
    instant, precision = parse_point(value, "at")
    if precision != "instant":
        raise ValueError("must be an instant with an offset (e.g. 2024-05-01T09:00:00+00:00), not only a date")
    return instant


class MessageIn(BaseModel):
    """One conversation message as a caller hands it over; validated before anything is written."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: Position
    role: Annotated[str, Field(max_length=NAME_MAX)]
    origin: Annotated[str, Field(max_length=NAME_MAX)]
    author: Annotated[str, Field(max_length=NAME_MAX)] | None = None
    text: Annotated[str, Field(max_length=TEXT_MAX)]
    at: Annotated[datetime, BeforeValidator(_instant_text)]

    @field_validator("role")
    @classmethod
    def _role(cls, value: str) -> str:
        if not value or not value.strip():
            raise ValueError("must not be empty")
        return value.strip()

    @field_validator("origin")
    @classmethod
    def _origin(cls, value: str) -> str:
        if value not in ORIGINS:
            raise ValueError(f"unknown origin {value!r}; origins are {sorted(ORIGINS)}")
        return value

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        if not value or not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("at")
    @classmethod
    def _at(cls, value: datetime) -> datetime:
        return to_utc(value, "at")


class Source(BaseModel):
    """An immutable piece of evidence: a message, a document, a tool result, an observation, code, a test or a log."""

    model_config = ConfigDict(frozen=True)

    source_id: str
    tenant: str
    kind: SourceKind
    text: str | None = None
    title: str | None = None
    uri: str | None = None
    author: str | None = None
    at: datetime | None = None
    session_id: str | None = None
    generation: int | None = None
    index: int | None = None
    role: str | None = None
    origin: str | None = None
    known_from: datetime
    consumed_by: str | None = None
    # who vouched that a human message is a person's: the actor that ingested it (`key:<id>`, or `local:<user>`);
    # None on other sources and on messages ingested before it was recorded (services/gate/attest.py)
    attested_by: str | None = None
    # labelled like a fact: None counts as internal; a writer cleared below that labels its sources with its clearance
    sensitivity: str | None = None
    tombstone: Tombstone | None = None  # set once forgotten: the text, title, uri and author are gone

    @property
    def human(self) -> bool:
        """Whether this is human testimony (a message whose origin is a human one)."""
        return self.kind == "message" and self.origin in HUMAN_ORIGINS


class MessageRef(BaseModel):
    """A pointer to one message: session, position, and optionally the session generation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: SessionId
    index: Position
    generation: Generation | None = None
