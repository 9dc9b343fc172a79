"""A page of a listing cut in its query by key (keyset): what a read is asked for, and how its answer says where
the next page starts. REST's cursors carry the key (api/inspector/routes.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
