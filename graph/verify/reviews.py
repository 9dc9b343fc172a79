"""The human review queue in the graph: one :ReviewItem per request, linked to the fact version by REVIEWS; it holds
no copy of the statement or the excerpt (read from the version and its sources when listed)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native
from credo.graph.core.versions import ALL

CREATE_REVIEW_ITEM = load("create_review_item")
READ_PENDING_REVIEW = load("read_pending_review")
READ_REVIEW_QUEUE = load("read_review_queue")
READ_REVIEW_ITEM = load("read_review_item")
DECIDE_REVIEW_ITEM = load("decide_review_item")


def _item(row: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if row is None else {k: native(v) for k, v in row["item"].items()}


def pending_of(tx: Tx, tenant: str, version_id: str) -> dict[str, Any] | None:
    """The pending item of a version, or None."""
    return _item(tx.one(READ_PENDING_REVIEW, tenant=tenant, version_id=version_id))


def enqueue(tx: Tx, tenant: str, known: datetime, row: dict[str, Any]) -> dict[str, Any] | None:
    """Queue a version the caller may see (None when it may not)."""
    return _item(tx.one(CREATE_REVIEW_ITEM, tenant=tenant, version_id=row["version_id"], known=known, row=row))


def pending(tx: Tx, tenant: str, *, after: list[str] | None = None, limit: int = ALL) -> list[dict[str, Any]]:
    """The pending items on versions the caller may see, oldest first, after a page's key."""
    return [_item(r) for r in tx.rows(READ_REVIEW_QUEUE, tenant=tenant, after=after, limit=limit)]  # type: ignore[misc]


def item(tx: Tx, tenant: str, item_id: str) -> dict[str, Any] | None:
    """One item on a version the caller may see, or None."""
    return _item(tx.one(READ_REVIEW_ITEM, tenant=tenant, item_id=item_id))


def decide(tx: Tx, tenant: str, item_id: str, *, state: str, known: datetime, decided_by: str,
           verification_id: str) -> dict[str, Any] | None:
    """Close a pending item with a decision (None when it was no longer pending)."""
    return _item(tx.one(DECIDE_REVIEW_ITEM, tenant=tenant, item_id=item_id, state=state, known=known,
                        decided_by=decided_by, verification_id=verification_id))
