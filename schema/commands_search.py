"""Command models of recall: search (issue 11)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from credo.schema.command_base import Command, Int, Name, Scope, States, Text, Time

Kinds = Annotated[list[Name], Field(max_length=32)] | Name | None


class SearchQuery(Command):
    """Hybrid search over facts, entities and summaries, filtered before it is ranked."""

    query: Annotated[Text, Field(min_length=1, max_length=1000)]
    valid_at: Time | None = None
    known_at: Time | None = None
    scope: Scope | None = None
    kinds: Kinds = Field(default=None, description="fact, entity, summary, or fact memory kinds (semantic, episodic, "
                                                   "procedural, relational); default all")
    states: States = None
    limit: Int = Field(default=10, ge=1, le=200)
    task: Name | None = Field(default=None,
                             description="a task label: the served fact versions are recorded as a read receipt")
