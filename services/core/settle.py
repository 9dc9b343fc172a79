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
What a process has seen settled is remembered per tenant, so reads at older points pay nothing more. A point not yet
past reads what is believed now; it is not fixed, and is not waited for.

Measured: tests/services/core/test_settled_reads.py shows the read that would otherwise be answered differently.
"""

from __future__ import annotations

import threading
import weakref
from datetime import datetime

from credo.graph.core import clock
from credo.graph.core.db import Database

_SETTLED: "weakref.WeakKeyDictionary[Database, dict[str, datetime]]" = weakref.WeakKeyDictionary()
_GUARD = threading.Lock()


def settle(db: Database, tenant: str, point: datetime, now: datetime) -> None:
    """Return once every write of `tenant` whose known time is at or before the past `point` has committed."""
    if point >= now:
        return
    with _GUARD:
        seen = _SETTLED.setdefault(db, {}).get(tenant)
    if seen is not None and point <= seen:
        return
    last = db.read(lambda tx: clock.committed_last(tx, tenant))
    if last is None or last < point:
        db.write(lambda tx: clock.settle_point(tx, tenant, point))
        last = point
    with _GUARD:
        known = _SETTLED.setdefault(db, {})
        known[tenant] = max(known.get(tenant, last), last)
