"""Cursor pagination: `limit` (default 50, max 200) and an opaque `next_cursor`; lists are never cut silently.

A cursor carries the offset, a hash of the query it belongs to, the known time the first page was read at, and for a
listing cut in its query by key (keyset, `After`) the key the next page starts after:
later pages read the store as believed then, so the pages of one listing never drift under concurrent writes
(for operations that take `known_at`; the others page over what is current).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import inspect
import json
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from credo.schema.errors import InvalidInput
from credo.schema.facts import Unreadable, Window
from credo.schema.pages import After
from credo.schema.time import point

T = TypeVar("T")
DEFAULT_LIMIT = 50
MAX_LIMIT = 200
CURSOR_MAX = 512  # a cursor this server issues is about 100 characters


class Page(BaseModel, Generic[T]):
    """One page of a listing; `next_cursor` is null on the last page."""

    items: list[T]
    next_cursor: str | None = None
    unreadable: list[Unreadable] = []  # stored versions the read skipped because their row fails validation


def query_hash(fields: dict[str, Any]) -> str:
    """A short fingerprint of the query a cursor belongs to."""
    text = json.dumps(fields, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def decode(cursor: str, fingerprint: str) -> tuple[int, str | None]:
    """(offset, pinned known time) from a cursor of this query; a foreign or broken cursor is bad input."""
    offset, pinned, _ = read_cursor(cursor, fingerprint)
    return offset, pinned


def read_cursor(cursor: str, fingerprint: str) -> tuple[int, str | None, str | list[str] | None]:
    """(offset, pinned known time, key the page starts after: a keyset page's) from a cursor of this query; a
    foreign or broken cursor is bad input."""
    if len(cursor) > CURSOR_MAX:
        raise InvalidInput("cursor", f"is not a cursor this server issued (at most {CURSOR_MAX} characters)")
    try:
        data = json.loads(base64.urlsafe_b64decode(cursor.encode() + b"=" * (-len(cursor) % 4)))
        offset, pinned, owner, after = int(data["o"]), data.get("k"), data["q"], data.get("a")
    except (ValueError, KeyError, TypeError, OverflowError, RecursionError, AttributeError) as exc:
        raise InvalidInput("cursor", "is not a cursor this server issued") from exc
    if not _is_instant(pinned) or not _is_key(after) or not 0 <= offset <= 2**63 - 1:
        raise InvalidInput("cursor", "is not a cursor this server issued")
    if owner != fingerprint:
        raise InvalidInput("cursor", "belongs to another query; pass the same parameters as the first page")
    return offset, pinned, after


def _is_key(after: Any) -> bool:
    """Whether a cursor's key is one this server issues: none, a text, or a list of texts (each text one a driver can
    send: JSON's escapes can spell a lone surrogate, which no UTF-8 encoder takes)."""
    parts = [after] if isinstance(after, str) else after
    return after is None or (isinstance(parts, list) and all(isinstance(a, str) and _utf8(a) for a in parts))


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_instant(pinned: Any) -> bool:
    """Whether a cursor's pinned known time is one this server issues: none, or an ISO 8601 instant with its offset."""
    if pinned is None:
        return True
    try:
        return isinstance(pinned, str) and datetime.fromisoformat(pinned).tzinfo is not None
    except ValueError:
        return False


def encode(offset: int, pinned: str | None, fingerprint: str, after: str | list[str] | None = None) -> str:
    """An opaque cursor for the page starting at `offset` (and, for a keyset page, after the key `after`)."""
    data: dict[str, Any] = {"o": offset, "k": pinned, "q": fingerprint} | ({"a": after} if after is not None else {})
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def pin_time(items: Sequence[Any]) -> str:
    """The known time later pages read at: now, or the newest known_from listed if the clock lags behind it."""
    now = datetime.now(timezone.utc)
    stamps = [getattr(i, "known_from", None) for i in items]
    newest = max([s for s in stamps if isinstance(s, datetime)], default=now)
    return max(now, newest).isoformat()


def window_page(result: Any, *, pinned: str | None, fingerprint: str) -> Page:
    """A page the read cut in its query (a windowed Listing): its items, and the cursor of the next window, if any."""
    after = result.next_offset
    return Page(items=list(result), next_cursor=None if after is None else encode(after, pinned, fingerprint),
                unreadable=list(getattr(result, "unreadable", ())))


def keyset_page(result: Any, *, offset: int, pinned: str | None, fingerprint: str) -> Page:
    """A page the read cut in its query by key (a Listing with `next_after`): its items, and the cursor of the page
    after its last key, if any."""
    after = result.next_after
    cursor = None if after is None else encode(offset + len(result), pinned, fingerprint, after=after)
    return Page(items=list(result), next_cursor=cursor, unreadable=list(getattr(result, "unreadable", ())))


def page(items: Sequence[Any], *, offset: int, limit: int, pinned: str | None, fingerprint: str) -> Page:
    """The slice [offset, offset+limit) and the cursor of the next one, if any."""
    chunk = list(items[offset:offset + limit])
    more = offset + limit < len(items)
    return Page(items=chunk, next_cursor=encode(offset + limit, pinned, fingerprint) if more else None,
                unreadable=list(getattr(items, "unreadable", ())))


def keyset_read(handle: Callable[..., Any], cmd: Any, fields: dict[str, Any], *, operation: str, limit: Any,
                cursor: Any, by: str | None = "page") -> Page:
    """One page of a listing, the one paging path of REST's and MCP's listings: `limit` 1 to MAX_LIMIT (default
    DEFAULT_LIMIT), a cursor of this very query only; later pages read at the first page's known time when the
    command has a `known_at` the caller left open. `by` is how the Store method cuts the listing in its query:
    "page" (by key: it takes `page`, an `After`), "window" (by position: `window`, a `Window`; a read it answers
    whole is sliced) or None (it takes neither: the whole listing, sliced). `handle(cmd, **paging)` runs the read."""
    if limit is None:
        limit = DEFAULT_LIMIT
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput("limit", f"must be a whole number from 1 to {MAX_LIMIT} (the most items of one page)")
    if cursor is not None and not isinstance(cursor, str):
        raise InvalidInput("cursor", "is not a cursor this server issued")
    fingerprint = query_hash({"operation": operation, **fields})  # a cursor of another listing is foreign
    offset, pinned, after = read_cursor(cursor, fingerprint) if cursor else (0, None, None)
    if after is not None and by != "page":  # a keyset cursor edited onto a listing paged by position
        raise InvalidInput("cursor", "is not a cursor of this listing")
    pin = "known_at" in type(cmd).model_fields and fields.get("known_at") is None
    if pin and pinned:  # the page's known time, pinned (read_cursor checked it is an instant)
        cmd = cmd.model_copy(update={"known_at": point(pinned, "cursor")})
    paging = {"page": After(after, limit)} if by == "page" else {}
    if by == "window":
        paging = {"window": Window(offset, limit)}
    result = handle(cmd, **paging)
    if pin and pinned is None:
        pinned = pin_time(result)  # read from the Store's answer, the list, before it is shaped
    if by == "page":
        return keyset_page(result, offset=offset, pinned=pinned, fingerprint=fingerprint)
    if getattr(result, "windowed", False):
        return window_page(result, pinned=pinned, fingerprint=fingerprint)
    return page(result, offset=offset, limit=limit, pinned=pinned, fingerprint=fingerprint)


@functools.cache
def cut_by(kind: type, method: str) -> str | None:
    """How a Store method cuts its listing in its query, as `keyset_read` takes it: "page" (by key: it takes
    `page`), "window" (by position: `window`) or None (neither)."""
    parameters = inspect.signature(getattr(kind, method)).parameters
    return "page" if "page" in parameters else "window" if "window" in parameters else None
