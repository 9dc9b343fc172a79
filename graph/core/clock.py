"""The tenant's commit clock as a reader needs it: the last committed known time, and a wait for commits in flight
(the writer's side, taking the clock and a known time, is graph/core/ledger.py `begin`)."""

from __future__ import annotations

from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native

READ_CLOCK_LAST = load("read_clock_last")
AWAIT_CLOCK = load("await_clock")


def committed_last(tx: Tx, tenant: str) -> datetime | None:
    """The last known time the tenant's committed writes hold (None: it has none)."""
    row = tx.one(READ_CLOCK_LAST, tenant=tenant)
    return native(row["last"]) if row and row["last"] is not None else None


def settle_point(tx: Tx, tenant: str, point: datetime) -> None:
    """Block until no write of the tenant is committing (take the clock's lock), and record `point` as settled so
    no later write takes a known time at or before it. Run it in a write transaction of its own, committed at once."""
    tx.one(AWAIT_CLOCK, tenant=tenant, point=point)
