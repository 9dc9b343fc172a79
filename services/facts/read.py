"""Read facts as of any (valid, known) point, a fact's history, and evolution chains."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from credo.graph.facts import entities as entity_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core.db import Tx
from credo.graph.facts import history as history_repo
from credo.graph.core.records import readable
from credo.schema import commands as c
from credo.schema.errors import InvalidInput, NotFound
from credo.schema.facts import AsOf, Fact, Listing, Window, literal, scope_key
from credo.schema.lifecycle import SERVED_VALUES, State
from credo.schema.pages import After, key_parts, keyed_page
from credo.schema.names import check_ref, check_scope, clean_name, normalise_predicate
from credo.schema.time import parse_instant
from credo.services.core.context import Context
from credo.services.core.support import served_at

HISTORY_STATES = sorted(
    s.value for s in State if s not in (State.CANDIDATE, State.CONFLICTED, State.REJECTED, State.FORGOTTEN, State.DELETED)
)


def points(ctx: Context, valid_at: Any, known_at: Any) -> tuple[datetime, datetime | None]:
    """Parse an as-of point; valid time defaults to now, known time to 'believed now'."""
    valid = ctx.now() if valid_at is None else parse_instant(valid_at, "valid_at")
    known = None if known_at is None else ctx.known_point(known_at)
    return valid, known


def states_filter(states: Any) -> list[str]:
    """Validated state names; None means the served states."""
    if states is None:
        return list(SERVED_VALUES)
    if isinstance(states, str):
        states = [states]
    try:
        return sorted({State(s).value for s in states})
    except ValueError as exc:
        raise InvalidInput("states", f"unknown state ({exc}); states are {[s.value for s in State]}") from None


def entity_ids(tx: Tx, tenant: str, name: str | None, known_at: datetime | None = None) -> list[str] | None:
    """Every id of the entity a name resolves to under the merges believed at known_at; [] if none."""
    if name is None:
        return None
    found = entity_repo.find(tx, tenant, name, known_at)
    return found.ids if found else []


def facts(ctx: Context, cmd: c.FactsQuery, *, window: Window | None = None) -> AsOf[Fact]:
    """Versions true at valid_at as believed at known_at (served states unless `states` says otherwise), then,
    apart and marked, the undated versions that may hold there (unless include_undated is False). A `window` of a
    listing that names no subject or object is cut in its query (`.windowed`, `.next_offset`); a read by name is
    whole (a name's versions are few)."""
    subject, predicate, object, scope, states = cmd.subject, cmd.predicate, cmd.object, cmd.scope, cmd.states
    valid_at, known_at, include_undated = cmd.valid_at, cmd.known_at, cmd.include_undated
    subject = None if subject is None else clean_name(subject, "subject")
    predicate = None if predicate is None else normalise_predicate(predicate)
    scope = None if scope is None else check_scope(scope)
    valid, known = points(ctx, valid_at, known_at)
    wanted = states_filter(states)

    object_norm = entity_repo.normalise(object) if isinstance(object, str) else None
    object_value = literal(object).value if object is not None and object_norm is None else None

    def work(tx: Tx) -> AsOf[Fact]:
        point = {"predicate": predicate, "object_value": object_value, "valid_at": valid, "known_at": known,
                 "scope_key": None if scope is None else scope_key(scope), "states": wanted,
                 "include_undated": include_undated}
        if window is not None and subject is None and object_norm is None:
            return _window(tx, ctx.tenant, window, point)
        if subject is not None or object_norm is not None:
            # the names are resolved inside the as-of query: one round trip
            found, premised = fact_repo.as_of_named(
                tx, ctx.tenant, object_norm=object_norm, **point,
                subject_norm=None if subject is None else entity_repo.normalise(subject))
        else:  # the listing read whole: premised facts named in the query, so support is asked for those alone
            rows, premised = fact_repo.as_of_window(tx, ctx.tenant, skip=0, limit=fact_repo.ALL, **point)
            found = readable([f for f in rows if f is not None], "facts as of a point")
        # premises valid at valid_at (queried only for versions that rest on some)
        return served_at(tx, ctx.tenant, found, valid_at=valid, known_at=known, premised=premised)

    return ctx.read(work)


def _window(tx: Tx, tenant: str, window: Window, point: dict[str, Any]) -> AsOf[Fact]:
    """One window of the as-of listing: rows read in the query one more than wanted (to know whether more follow);
    a version that is unreadable, or served here but unsupported at the point, is passed over and the window is
    refilled from where its query stopped, so a page is never short while more follow."""
    pos, kept, unreadable = window.offset, [], []
    while True:
        want = window.limit - len(kept)
        found, premised = fact_repo.as_of_window(tx, tenant, skip=pos, limit=want + 1, **point)
        head = [f for f in found[:want] if f is not None]
        unreadable += [f.unreadable for f in head if f.unreadable is not None]
        good = [f for f in head if f.unreadable is None]
        supported = {f.version_id for f in served_at(tx, tenant, good, valid_at=point["valid_at"],
                                                     known_at=point["known_at"], premised=premised)}
        kept += [f for f in good if f.version_id in supported]
        ended = len(found) <= want
        pos += want
        if ended or len(kept) == window.limit:
            page = AsOf(kept, unreadable)
            page.windowed, page.next_offset = True, None if ended else pos
            return page


def history(ctx: Context, cmd: c.HistoryQuery, *, page: After | None = None) -> list[Fact]:
    """Every version of a fact (both intervals, how each ended), oldest belief first; unreadable stored versions
    are skipped and named in the answer's `.unreadable`. A `page` is cut in the query by key (`.next_after`)."""
    fact_id = check_ref(cmd.fact_id)
    if page is None:
        found = ctx.read(lambda tx: history_repo.versions(tx, ctx.tenant, fact_id))
    else:
        after = None if page.key is None else key_parts(page, "instant", "instant", "text")
        found = keyed_page(ctx.read(lambda tx: history_repo.versions(tx, ctx.tenant, fact_id, after=after,
                                                                     limit=page.limit + 1)),
                           page, key=history_repo.history_key)
    if not found and (page is None or page.key is None):
        raise NotFound("fact", fact_id)
    listing = readable(found, "history")
    listing.next_after = getattr(found, "next_after", None)
    return listing


def chain(ctx: Context, cmd: c.ChainQuery) -> list[Fact]:
    """The evolution of (subject, predicate) in valid-time order, as believed at known_at."""
    subject, predicate = clean_name(cmd.subject, "subject"), normalise_predicate(cmd.predicate)
    known_at, scope = cmd.known_at, None if cmd.scope is None else check_scope(cmd.scope)
    _, known = points(ctx, None, known_at)

    def work(tx: Tx) -> list[Fact]:
        ids = entity_ids(tx, ctx.tenant, subject, known)
        return fact_repo.as_of(
            tx, ctx.tenant, subject_ids=ids, predicate=predicate, scope_key=None if scope is None else scope_key(scope),
            valid_at=ctx.now(), known_at=known, states=HISTORY_STATES, include_undated=True, any_valid=True,
        )

    found = ctx.read(work)
    return Listing(sorted(found, key=lambda f: (f.valid_from is not None, f.valid_from or _EPOCH, f.known_from)),
                   found.unreadable)


_EPOCH = datetime(1, 1, 1, tzinfo=timezone.utc)
