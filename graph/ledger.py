"""The commit clock and the append-only audit ledger, shared by every write transaction."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.db import Tx
from credo.graph.records import native
from credo.schema.time import next_tick

TICK_CLOCK = load("tick_clock")
SET_CLOCK = load("set_clock")
APPEND_AUDIT = load("append_audit")


def new_id(prefix: str) -> str:
    """A fresh identifier with a readable prefix (f_ fact, v_ version, e_ entity, ...)."""
    return f"{prefix}_{uuid.uuid4().hex[:20]}"


def begin(tx: Tx, tenant: str, now: datetime) -> datetime:
    """Lock the tenant's clock and assign this write's known time (strictly increasing)."""
    row = tx.one(TICK_CLOCK, tenant=tenant)
    known = next_tick(native(row["last"]) if row else None, now)
    tx.one(SET_CLOCK, tenant=tenant, known=known)
    return known


def audit(tx: Tx, tenant: str, known: datetime, events: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Append (action, subject_id, detail) entries to the ledger."""
    if not events:
        return
    rows = [
        {"event_id": new_id("a"), "action": action, "subject_id": subject, "detail": json.dumps(detail, default=str)}
        for action, subject, detail in events
    ]
    tx.one(APPEND_AUDIT, tenant=tenant, known=known, rows=rows)
