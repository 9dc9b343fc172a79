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
FINISH_WRITE = load("finish_write")


def new_id(prefix: str) -> str:
    """A fresh identifier with a readable prefix (f_ fact, v_ version, e_ entity, ...)."""
    return f"{prefix}_{uuid.uuid4().hex[:20]}"


def begin(tx: Tx, tenant: str, now: datetime) -> datetime:
    """Lock the tenant's clock and assign this write's known time (strictly increasing); `finish` stores it."""
    row = tx.one(TICK_CLOCK, tenant=tenant)
    return next_tick(native(row["last"]) if row else None, now)


def audit(tx: Tx, tenant: str, known: datetime, events: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Append (action, subject_id, detail) entries to the ledger (written by `finish`, in the same transaction)."""
    _pending(tx).extend(
        {"event_id": new_id("a"), "tenant": tenant, "action": action, "subject_id": subject,
         "detail": json.dumps(detail, default=str)}
        for action, subject, detail in events
    )


def finish(tx: Tx, tenant: str, known: datetime) -> None:
    """Store the write's known time on the clock and append its ledger entries: one round trip before commit.

    The clock stays locked from `begin` to commit (tick_clock writes it), so storing `last` here is as safe as
    storing it right after the read, and the ledger entries of the work and of its cascade travel together.
    """
    rows = _pending(tx)
    tx.one(FINISH_WRITE, tenant=tenant, known=known, rows=list(rows))
    rows.clear()


def _pending(tx: Tx) -> list[dict[str, Any]]:
    """Ledger entries this transaction will append (a retried transaction gets a fresh Tx, so a fresh list)."""
    rows = getattr(tx, "credo_audit", None)
    if rows is None:
        rows = []
        setattr(tx, "credo_audit", rows)
    return rows
