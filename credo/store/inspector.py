"""Store methods of the memory inspector: the reads its pages need beyond the other operations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema import commands_inspector as ci
from credo.schema.commands import build, fields_of
from credo.schema.facts import Fact
from credo.schema.forget import ForgetPreview
from credo.services.forget import preview as preview_service
from credo.services.facts import timeline as timeline_service
from credo.services.core.context import Context


class InspectorMixin:
    """The inspector's reads; mixed into `credo.Store`."""

    _ctx: Context

    def entity_versions(self, entity: str) -> list[Fact]:
        """Every version of every fact about an entity, in all states and at every known time (the timeline)."""
        cmd = build(ci.EntityVersionsQuery, entity=entity)
        return timeline_service.entity_versions(self._ctx, cmd)

    def forget_preview(self, target_id: str) -> ForgetPreview:
        """What forgetting `target_id` would reach, read from the id alone (nothing is written); NotFound for an id
        this tenant does not hold."""
        cmd = build(ci.ForgetPreviewQuery, target_id=target_id)
        return preview_service.forget_preview(self._ctx, **fields_of(cmd))


HANDLERS: dict[str, Callable[..., Any]] = {"entity_versions": timeline_service.entity_versions}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
