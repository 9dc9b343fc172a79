"""Store methods of episodic memory: the timeline, TTL roll-off and reflection (DESIGN §9)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema import commands_episodic as ce
from credo.schema.commands import build
from credo.schema.episodic import Reflection, RollOff
from credo.schema.facts import Fact
from credo.schema.pages import After
from credo.services.adapters.extractors import Extractor
from credo.services.core.context import Context
from credo.services.episodic import reflect as reflect_service
from credo.services.episodic import roll_off as roll_off_service
from credo.services.episodic import timeline as timeline_service


class EpisodicMixin:
    """Episodic half of the public API; mixed into `credo.Store`."""

    _ctx: Context
    _forget_probes: dict[str, Any]

    def timeline(self, *, session: str | None = None, entity: str | None = None, from_: Any = None, to: Any = None,
                 known_at: Any = None, page: After | None = None) -> list[Fact]:
        """The episodes of a session or an entity within [from_, to), in time order (valid time, then known time);
        `page` reads one page of them in its query (REST's pages: `.next_after`)."""
        cmd = build(ce.TimelineQuery, session=session, entity=entity, from_=from_, to=to, known_at=known_at)
        return timeline_service.timeline(self._ctx, cmd, page=page)

    def roll_off(self, *, now: Any = None) -> RollOff:
        """Forget every episode older than its workflow's TTL, each through `forget` and verified by its residue
        report."""
        cmd = build(ce.RollOffEpisodes, now=now)
        return roll_off_service.roll_off(self._ctx, cmd, probes=self._forget_probes)

    def reflect(self, *, session: str | None = None, entity: str | None = None, from_: Any = None, to: Any = None,
                extractor: Extractor | None = None) -> Reflection:
        """Propose semantic candidates from the episodes of a window (the extractor's, or those that recur); writes
        nothing semantic: a proposal is admitted only through the gate (remember, add_fact, extract then admit)."""
        cmd = build(ce.Reflect, session=session, entity=entity, from_=from_, to=to)
        return reflect_service.reflect(self._ctx, cmd, extractor=extractor)


HANDLERS: dict[str, Callable[..., Any]] = {
    "timeline": timeline_service.timeline, "roll_off": roll_off_service.roll_off, "reflect": reflect_service.reflect,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`); `reflect`
takes the configured extractor after the command when one is composed."""
