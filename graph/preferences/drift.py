"""Drift items of preferences in the graph: one :PreferenceDrift node per item, listed in the conflicts queue by
cypher/facts/read_conflicts.cypher beside the dispute edges; at most one open per preference."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx

OPEN_PREFERENCE_DRIFT = load("open_preference_drift")
CLOSE_PREFERENCE_DRIFT = load("close_preference_drift")


def open_item(tx: Tx, tenant: str, known: datetime, row: dict[str, Any]) -> str | None:
    """Open a drift item; None when one is already open for the preference (nothing created)."""
    found = tx.one(OPEN_PREFERENCE_DRIFT, tenant=tenant, known=known, row={k: v for k, v in row.items() if v is not None})
    return found["conflict_id"] if found else None


def close_item(tx: Tx, tenant: str, known: datetime, conflict_id: str, decision: str) -> int:
    """Close an open drift item with a person's decision; how many closed (0 or 1)."""
    row = tx.one(CLOSE_PREFERENCE_DRIFT, tenant=tenant, conflict_id=conflict_id, decision=decision, known=known)
    return row["closed"] if row else 0
