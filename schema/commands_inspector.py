"""Command models of the memory inspector's reads (the pages use these and the existing operations only)."""

from __future__ import annotations

from credo.schema.command_base import Command, Id, Name


class EntityVersionsQuery(Command):
    """Every version of every fact about an entity, in all states and at every known time (the timeline)."""

    entity: Name


class ForgetPreviewQuery(Command):
    """What forgetting one id would reach (a fact, version, source, entity or summary id), read from the id alone."""

    target_id: Id
