"""Store methods of the memory inspector: the reads its pages need beyond the other operations."""

from __future__ import annotations

from credo.schema import commands_inspector as ci
from credo.schema.commands import build, fields_of
from credo.schema.facts import Fact
from credo.services import timeline as timeline_service
from credo.services.context import Context


class InspectorMixin:
    """The inspector's reads; mixed into `credo.Store`."""

    _ctx: Context

    def entity_versions(self, entity: str) -> list[Fact]:
        """Every version of every fact about an entity, in all states and at every known time (the timeline)."""
        cmd = build(ci.EntityVersionsQuery, entity=entity)
        return timeline_service.entity_versions(self._ctx, **fields_of(cmd))
