"""The re-verification queue in the graph: stale fact versions and stale summaries, read together in one keyset
order so a page of the queue is cut in its query."""

from __future__ import annotations

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import fact_from_row
from credo.graph.core.versions import ALL
from credo.graph.truth.summaries import summary_from_row
from credo.schema.cascade import Summary
from credo.schema.facts import Fact
from credo.schema.lifecycle import State

READ_STALE = load("read_stale")


def awaiting(tx: Tx, tenant: str, *, after: list[str] | None = None, limit: int = ALL) -> list[Fact | Summary]:
    """Current fact versions and summaries in state stale, oldest first (`stale_key` order): every one, or at most
    `limit` after the one keyed `after`. A fact version whose row fails validation comes back marked `.unreadable`
    (not dropped), so a page is cut on what the query read."""
    rows = tx.rows(READ_STALE, tenant=tenant, state=State.STALE.value, after=after, limit=limit)
    return [fact_from_row(r["fact"]) if r["kind"] == "fact" else summary_from_row(r["summary"], r["trace"])
            for r in rows]


def stale_key(item: Fact | Summary) -> list[str]:
    """An item's place in the queue's order (known from, kind, id, version id), as a page's key."""
    if isinstance(item, Fact):
        return [item.known_from.isoformat(), "fact", item.fact_id, item.version_id]
    return [item.known_from.isoformat(), "summary", item.summary_id, item.version_id]
