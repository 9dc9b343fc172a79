"""Command models of recall: the context package and read receipts (issue 11 items 3 and 5)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from credo.schema.command_base import Command, Id, Int, Name, Scope, Text, Time


class ContextQuery(Command):
    """A context package for a question or an entity: current, historical (why it stopped applying), open."""

    renamed = {"question_or_entity": "query"}  # the name search takes; the old one is refused with a hint
    query: Annotated[Text, Field(min_length=1, max_length=4096)] = Field(description="a question, or an entity's name")
    valid_at: Time | None = None
    known_at: Time | None = None
    scope: Scope | None = None
    budget_tokens: Int | None = Field(default=None, ge=64, le=1_000_000,
                                      description="token budget of the rendering (about 4 characters a token)")
    task: Name | None = Field(default=None,
                             description="a task label: the served versions are recorded as a read receipt")


class ServedToQuery(Command):
    """What a task was served: its read receipts, oldest first, each with the versions as stored."""

    task: Annotated[Name, Field(min_length=1)]


class TasksServedQuery(Command):
    """Which tasks were served a fact (any of its versions) or one version."""

    fact_id: Id = Field(description="a fact id (f_...) or a version id (v_...)")
