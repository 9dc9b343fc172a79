"""Store methods for the explicit lifecycle acts: deprecate, quarantine, release (DESIGN.md §6).

Each is a state flag through the one transition table, with a reason and an actor; the Fact(s) returned carry the
write's cascade report in `.cascade` (what rested on a fact that stopped being served went stale).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema import commands_lifecycle as c
from credo.schema.commands import build
from credo.schema.facts import Fact
from credo.services.truth import lifecycle as lifecycle_service
from credo.services.core.context import Context


class LifecycleMixin:
    """Lifecycle half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def deprecate(self, fact_id: str, *, reason: str, actor: str) -> Fact:
        """Set a fact aside as deprecated: kept as history, no longer served."""
        cmd = build(c.Deprecate, fact_id=fact_id, reason=reason, actor=actor)
        return lifecycle_service.deprecate(self._ctx, cmd)

    def quarantine(self, source_id: str | None = None, *, fact_id: str | None = None, reason: str,
                   actor: str) -> list[Fact]:
        """Set aside a suspicious source's facts (or one fact): not served, not deleted, until released."""
        cmd = build(c.Quarantine, source_id=source_id, fact_id=fact_id, reason=reason, actor=actor)
        return lifecycle_service.quarantine(self._ctx, cmd)

    def release(self, source_id: str | None = None, *, fact_id: str | None = None, reason: str,
                actor: str) -> list[Fact]:
        """Release quarantined facts (a source's, or one) back to candidate, to be admitted again."""
        cmd = build(c.Release, source_id=source_id, fact_id=fact_id, reason=reason, actor=actor)
        return lifecycle_service.release(self._ctx, cmd)


HANDLERS: dict[str, Callable[..., Any]] = {
    "deprecate": lifecycle_service.deprecate, "quarantine": lifecycle_service.quarantine,
    "release": lifecycle_service.release,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
