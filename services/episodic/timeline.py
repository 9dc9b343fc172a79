"""`timeline`: the episodes of a session or an entity, read by time, not by relevance (DESIGN §9)."""

from __future__ import annotations

from datetime import datetime

from credo.graph.core.records import readable
from credo.graph.episodic import episodes as episode_repo
from credo.schema import commands_episodic as ce
from credo.schema.errors import InvalidInput
from credo.schema.facts import Fact, Listing
from credo.schema.lifecycle import SERVED_VALUES
from credo.schema.pages import After, checked_key, keyed_page
from credo.services.core.context import Context
from credo.services.facts.read import entity_ids


def one_of(session: str | None, entity: str | None) -> None:
    """A timeline or a reflection reads one session or one entity: exactly one of them is given."""
    if (session is None) == (entity is None):
        raise InvalidInput("session", "give a session or an entity (one of them)")


def window(start: datetime | None, end: datetime | None) -> None:
    """Refuse an empty or inverted window [from_, to)."""
    if start is not None and end is not None and end <= start:
        raise InvalidInput("to", f"must be later than from_ ({end.isoformat()} <= {start.isoformat()})")


def episodes(ctx: Context, *, session: str | None, entity: str | None, start: datetime | None,
             end: datetime | None, known_at: datetime | None = None, page: After | None = None,
             limit: int | None = None) -> Listing:
    """The episodes of the window in time order (the caller's clearance applied in the query), one page when
    `page` is given (`.next_after`), at most `limit` of them otherwise (None: all)."""
    one_of(session, entity)
    window(start, end)
    after = None if page is None else checked_key(page, "instant", "instant", "text")
    most = page.limit + 1 if page is not None else episode_repo.ALL if limit is None else limit

    def read(tx) -> list[Fact]:
        ids = None if entity is None else entity_ids(tx, ctx.tenant, entity, known_at)
        if ids == []:
            return []
        return episode_repo.timeline(tx, ctx.tenant, subject_ids=ids, session_id=session, known_at=known_at,
                                     states=sorted(SERVED_VALUES), start=start, end=end, after=after,
                                     limit=most)

    found = ctx.read(read)
    if page is not None:
        found = keyed_page(found, page, key=episode_repo.timeline_key)
    listing = readable(found, "timeline")
    listing.next_after = getattr(found, "next_after", None)
    return listing


def timeline(ctx: Context, cmd: ce.TimelineQuery, *, page: After | None = None) -> list[Fact]:
    """The episodes of `session` (stated in its messages) or of `entity` (about it), placed at their valid_from (an
    undated one at its known_from) within [from_, to), in time order: that instant, then known time. Only served
    versions believed at `known_at` that the caller may see; `page` reads one page in the query (`.next_after`)."""
    known = None if cmd.known_at is None else ctx.known_point(cmd.known_at)
    return episodes(ctx, session=cmd.session, entity=cmd.entity, start=_at(cmd.from_), end=_at(cmd.to),
                    known_at=known, page=page)


def _at(point) -> datetime | None:
    return None if point is None else point.at
