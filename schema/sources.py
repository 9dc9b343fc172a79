"""Source shapes: messages as ingested (`MessageIn`), stored sources (`Source`), and pointers (`MessageRef`)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from credo.schema.forget import Tombstone
from credo.schema.time import to_utc

SourceKind = Literal["message", "document", "tool_result", "observation"]

# A message's origin says who wrote it; its role is only transport (DESIGN §3).
HUMAN_ORIGINS: frozenset[str] = frozenset({"human_input", "delivered_interjection"})
NON_HUMAN_ORIGINS: frozenset[str] = frozenset({
    "agent", "tool_result", "task_result", "scheduled_trigger", "wake_notification", "component_template",
    "quarantined_input", "system_event",
})
ORIGINS: frozenset[str] = HUMAN_ORIGINS | NON_HUMAN_ORIGINS


class MessageIn(BaseModel):
    """One conversation message as a caller hands it over; validated before anything is written."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: int = Field(ge=0)
    role: str
    origin: str
    author: str | None = None
    text: str
    at: datetime

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
    """An immutable piece of evidence: a message, a document, a tool result or an observation."""

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
    tombstone: Tombstone | None = None  # set once forgotten: the text, title, uri and author are gone

    @property
    def human(self) -> bool:
        """Whether this is human testimony (a message whose origin is a human one)."""
        return self.kind == "message" and self.origin in HUMAN_ORIGINS


class MessageRef(BaseModel):
    """A pointer to one message: session, position, and optionally the session generation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: str
    index: int
    generation: int | None = None
