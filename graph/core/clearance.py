"""What the caller's clearance hides, for the acts that change content and for a write's answer.

Reads filter inside their own queries (cypher/fragments/visible.cypher, `$levels` from `Tx.levels`); these two
queries answer the questions a write asks before acting on an id or naming a version in its answer.
"""

from __future__ import annotations

from credo.cypher import load
from credo.graph.core.db import SEES_ALL, Tx

READ_HIDDEN_CONTENT = load("read_hidden_content")
READ_VISIBLE_VERSIONS = load("read_visible_versions")
READ_CONTENT_LABELS = load("read_content_labels")
EVERY = SEES_ALL[0]  # the $levels entry of a caller cleared for all


def clearance_of(tx: Tx) -> str:
    """The clearance of the caller a transaction runs for, from its `$levels` ('all', or the highest label it
    sees: schema/search.py `query_levels` lists the labels up to it)."""
    return "all" if EVERY in tx.levels else tx.levels[-1]


def hidden(tx: Tx, tenant: str, ref: str, *, current_only: bool = False) -> bool:
    """Whether `ref` (a fact, version, source, entity or summary id) names content above the caller's clearance
    (facts: with `current_only`, only versions believed now count). A caller cleared for all asks nothing."""
    if EVERY in tx.levels:
        return False
    row = tx.one(READ_HIDDEN_CONTENT, tenant=tenant, id=ref, current_only=current_only)
    return bool(row and row["hidden"])


def labels(tx: Tx, tenant: str, ref: str) -> list[str | None]:
    """The sensitivity labels of the content `ref` names (None for an unlabelled node), whatever the caller's
    clearance: what a purge records, so its tombstone answers only a caller who could have seen that content."""
    row = tx.one(READ_CONTENT_LABELS, tenant=tenant, id=ref)
    return [label or None for label in (row["labels"] if row else [])]


def visible_versions(tx: Tx, tenant: str, fact_version_ids: list[str], summary_version_ids: list[str] = ()) -> set[str]:
    """The fact and summary version ids among those given that the caller may see (all of them, without a query, for
    a caller cleared for all)."""
    if EVERY in tx.levels:
        return set(fact_version_ids) | set(summary_version_ids)
    if not fact_version_ids and not summary_version_ids:
        return set()
    rows = tx.rows(READ_VISIBLE_VERSIONS, tenant=tenant, fact_version_ids=sorted(set(fact_version_ids)),
                   summary_version_ids=sorted(set(summary_version_ids)))
    return {r["version_id"] for r in rows}
