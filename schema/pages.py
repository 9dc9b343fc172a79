"""A page of a listing cut in its query by key (keyset): what a read is asked for, and how its answer says where
the next page starts. REST's cursors carry the key (api/pages.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from credo.schema.errors import InvalidInput
from credo.schema.facts import Listing


@dataclass(frozen=True)
class After:
    """One page of a listing cut in its query by its key (keyset: `WHERE key > $after ORDER BY key LIMIT $n`, no
    row before the page read): the items whose key sorts after `key` (None: from the first), at most `limit`; the
    answer's `next_after` is the key the next page starts after (None: this page is the last). A key is text, or a
    list of texts for an order on several fields (a receipt's known time, then its id)."""

    key: str | list[str] | None
    limit: int


def keyed_page(found: list[Any], page: After, *, key: Callable[[Any], str | list[str]]) -> Listing:
    """The page of a keyset read that asked for `page.limit` and one more row: its items, and the key the next page
    starts after when that extra row came (else None: the listing ends here)."""
    listing = Listing(found[:page.limit])
    listing.next_after = key(listing[-1]) if len(found) > page.limit else None
    return listing


def key_parts(page: After, *kinds: str) -> list[Any]:
    """The page's key read as this listing's keys are written: one part per kind, "text" or "instant" (ISO 8601
    text, "" for none, read as a datetime); a key of any other shape (a cursor of another listing, or edited by
    hand) is bad input naming the cursor, so it never reaches a query."""
    key = page.key
    parts = [key] if isinstance(key, str) else key
    if not isinstance(parts, list) or len(parts) != len(kinds) or not all(isinstance(p, str) for p in parts):
        raise InvalidInput("cursor", "is not a cursor of this listing")
    read: list[Any] = []
    for kind, part in zip(kinds, parts):
        if kind == "instant":
            try:
                read.append(None if part == "" else datetime.fromisoformat(part))
            except ValueError as exc:
                raise InvalidInput("cursor", "is not a cursor of this listing") from exc
            if read[-1] is not None and read[-1].tzinfo is None:
                raise InvalidInput("cursor", "is not a cursor of this listing")
        else:
            read.append(part)
    return read


def checked_key(page: After, *kinds: str) -> list[str] | None:
    """The page's key as its listing's query takes it (text parts), after `key_parts` checked its shape and times;
    None for a first page."""
    if page.key is None:
        return None
    key_parts(page, *kinds)
    return [page.key] if isinstance(page.key, str) else list(page.key)


def instant_key(at: datetime | None) -> str:
    """An instant as a part of a page's key (`key_parts` reads it back): ISO 8601 text, "" for none."""
    return "" if at is None else at.isoformat()
