"""Entity shapes."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Entity(BaseModel):
    """A canonical entity with its aliases and every id merged into it."""

    model_config = ConfigDict(frozen=True)

    entity_id: str
    name: str
    kind: str | None = None
    aliases: list[str] = Field(default_factory=list)
    ids: list[str] = Field(default_factory=list)
