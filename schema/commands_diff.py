"""Command model of the belief diff (DESIGN.md §11): what the store believed differently between two known times."""

from __future__ import annotations

from pydantic import Field

from credo.schema.command_base import Command, Name, Scope, Time


class DiffQuery(Command):
    """Every change of belief whose known time falls after `known_a` and at or before `known_b`, oldest first."""

    known_a: Time = Field(description="the earlier known time (excluded): what was believed then is the baseline")
    known_b: Time = Field(description="the later known time (included); must be after known_a")
    scope: Scope | None = None
    subject: Name | None = Field(default=None, description="only changes of facts about this entity")
