"""Command model of the transition check (DESIGN.md §11): were the writes between two known times covered,
preserving and faithful."""

from __future__ import annotations

from pydantic import Field

from credo.schema.command_base import Command, Scope, Time


class TransitionQuery(Command):
    """Judge every write whose known time falls after `known_before` and at or before `known_after`."""

    known_before: Time = Field(description="the known time before the writes (excluded)")
    known_after: Time = Field(description="the known time after them (included); must be after known_before")
    scope: Scope | None = None
    strict: bool = Field(default=False, description="true: an ungrounded write (no quote, source or acceptance, "
                                                    "e.g. an operator's direct add_fact) fails faithfulness")
