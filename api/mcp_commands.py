"""Interim command models for the MCP tools, until `schema/commands.py` declares every operation once.

Each model is one tool's input; the tool's JSON schema and its validation both come from it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from credo.schema.sources import MessageIn

TIME = ("a date ('2024', '2024-06', '2024-06-01') or an ISO 8601 instant with an offset "
        "('2024-06-01T09:30:00+00:00'); precision is kept")


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AddMessages(_Command):
    """Record one session's conversation messages (one generation)."""

    session_id: str = Field(min_length=1, description="the conversation's id")
    messages: list[MessageIn] = Field(min_length=1, description="messages of the turn, each with its index in the "
                                      "session, role, origin (human_input, agent, tool_result, ...), author, text, at")
    generation: int = Field(default=1, ge=1, description="session generation (a reset starts a new one)")


class Remember(_Command):
    """Record a claim on the word of a verbatim quote from one human message of the current turn."""

    session_id: str = Field(min_length=1, description="the conversation whose current turn holds the quote")
    quote: str = Field(description="copied verbatim from ONE human message of the current turn")
    content: str = Field(description="the claim, rewritten to be readable without the conversation")
    category: str | None = Field(default=None, description="predicate to file it under when none is given")
    replaces: str | None = Field(default=None, description="fact id this statement corrects (same gate)")
    project: str | None = Field(default=None, description="project scope (and default subject)")
    subject: str | None = Field(default=None, description="entity the claim is about")
    predicate: str | None = Field(default=None, description="relation, e.g. located_in, owned_by")
    object: Any = Field(default=None, description="entity name (text) or literal value; default: the content")
    valid_from: str | None = Field(default=None, description=f"since when it holds in the world: {TIME}; "
                                   "leave unset when the human did not say (it stays unknown)")
    valid_to: str | None = Field(default=None, description=f"when it stops holding: {TIME}")
    scope: dict[str, str] | None = Field(default=None, description="e.g. {'env': 'production'}")
    depends_on: list[str] | None = Field(default=None, description="premise fact ids it rests on (ANDed)")
    generation: int | None = Field(default=None, description="session generation (default: the newest)")
    since: int | None = Field(default=None, description="message index the turn starts at (default: after the "
                              "agent's last message)")


class FactsQuery(_Command):
    """Facts valid at one point of valid time, as believed at one point of known time."""

    subject: str | None = None
    predicate: str | None = None
    object: Any = None
    valid_at: str | None = Field(default=None, description=f"point in the world's time (default now): {TIME}")
    known_at: str | None = Field(default=None, description=f"as believed then (default now): {TIME}")
    scope: dict[str, str] | None = None


class WhoQuery(_Command):
    """Relations of an entity, or the holders of `predicate object`, at a point."""

    entity: str | None = Field(default=None, description="every relation of this entity, both directions")
    predicate: str | None = Field(default=None, description="with `object`: who held it")
    object: Any = None
    valid_at: str | None = Field(default=None, description=TIME)
    known_at: str | None = Field(default=None, description=TIME)

    @model_validator(mode="after")
    def _one_question(self) -> "WhoQuery":
        if (self.entity is None) == (self.predicate is None or self.object is None):
            raise ValueError("give either `entity`, or both `predicate` and `object`")
        return self


class WhyQuery(_Command):
    """Why a fact is held."""

    fact_id: str = Field(min_length=1, description="fact id (f_...) or version id (v_...)")
    known_at: str | None = Field(default=None, description=f"as believed then (default now): {TIME}")


class StaleQuery(_Command):
    """Everything awaiting re-verification or a rebuild."""


class Reverify(_Command):
    """Close the re-verification of a (stale) fact."""

    fact_id: str = Field(min_length=1)
    outcome: Literal["holds", "lapsed", "retracted"] = "holds"
    evidence: str | list[str] | None = Field(default=None, description="text, a source id, or premise fact ids")
    note: str | None = None


class ConflictsQuery(_Command):
    """Writes kept but not applied, awaiting a decision."""

    include_resolved: bool = False


class ResolveConflict(_Command):
    """Decide a conflict."""

    conflict_id: str = Field(min_length=1)
    decision: Literal["succession", "correction", "reject", "split_scope"]
    at: str | None = Field(default=None, description=f"for succession: when the world changed: {TIME}")
    scope: dict[str, str] | None = Field(default=None, description="for split_scope: the challenger's scope")
    reason: str | None = None
