"""A past known point is fixed: a read there first waits for any write still committing at or before it.

A write takes its known time when it locks the tenant's clock (graph/core/ledger.py `begin`: the later of its now and
one tick after the last) and commits later; writes of one tenant commit one after another, in known-time order.
Between the two, a read at a point after that known time would miss the write and a later read at the same point
see it. So a read at a past point t first makes sure no write at or before t is still committing:
- when the clock's last committed known time is t or later, every write at or before t has committed (one small
  read);
- otherwise it takes the clock's lock and records t as settled on the clock (a transaction of its own): a write
  holding the lock finishes first, and any write that takes it later takes a known time after t, whatever its
  server's clock says (graph/core/ledger.py `begin` hands out times after the clock's settled point).
What a process has seen settled is remembered per tenant (`SettledPoints`, one per process: the Store made by the
composition root makes it, every handle it gives shares it through its Context), so reads at older points pay nothing
more. A point not yet past reads what is believed now; it is not fixed, and is not waited for.

Measured: tests/services/core/test_settled_reads.py shows the read that would otherwise be answered differently.
"""

from __future__ import annotations

import threading
from datetime import datetime

from credo.graph.core import clock
from credo.graph.core.db import Database


class SettledPoints:
    """The latest point this process has seen settled, per tenant (shared by every handle on one driver)."""

    def __init__(self) -> None:
        self._latest: dict[str, datetime] = {}
        self._guard = threading.Lock()

    def covers(self, tenant: str, point: datetime) -> bool:
        """Whether `point` is at or before a point already seen settled for `tenant`."""
        with self._guard:
            seen = self._latest.get(tenant)
        return seen is not None and point <= seen

    def record(self, tenant: str, point: datetime) -> None:
        """Remember that every write of `tenant` at or before `point` has committed."""
        with self._guard:
            self._latest[tenant] = max(self._latest.get(tenant, point), point)


def settle(db: Database, settled: SettledPoints, tenant: str, point: datetime, now: datetime) -> None:
    """Return once every write of `tenant` whose known time is at or before the past `point` has committed."""
    if point >= now or settled.covers(tenant, point):
        return
    last = db.read(lambda tx: clock.committed_last(tx, tenant))
    if last is None or last < point:
        db.write(lambda tx: clock.settle_point(tx, tenant, point))
        last = point
    settled.record(tenant, last)
