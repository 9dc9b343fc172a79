"""Command models of the memory inspector's reads (the pages use these and the existing operations only)."""

from __future__ import annotations

from credo.schema.command_base import Command, Name


class EntityVersionsQuery(Command):
    """Every version of every fact about an entity, in all states and at every known time (the timeline)."""

    entity: Name
