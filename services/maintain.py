"""`maintain`: turn into `stale` what rests on premises whose valid time has ended by now.

Reads already stop serving such dependents from the premise's end on (services/support.py); this sweep makes it
an explicit state change with its cause, so `stale()` lists them for re-verification. It also gives a tenant grown
past `search_partition.THRESHOLD` fact versions its own search partition (label + vector index). Run it on a schedule
(`credo maintain`); it is idempotent, and its now is the write's known time (the store's clock).
"""

from __future__ import annotations

from datetime import datetime

from credo.graph import dependencies as dep_repo
from credo.graph import ledger, search_partition
from credo.graph.db import Tx
from credo.schema.cascade import CascadeReport
from credo.schema.lifecycle import SERVED_VALUES
from credo.services.cascade import cascade
from credo.services.context import Context
from credo.services.versions import changes


def maintain(ctx: Context) -> CascadeReport:
    """Flag, at the current time, the dependents whose premises' valid time has ended; the cascade's report."""

    def work(tx: Tx, known: datetime) -> CascadeReport:
        ended = dep_repo.ended_premises(tx, ctx.tenant, known, list(SERVED_VALUES))
        # the premise is still believed (its claim about the past holds); what ended is its support for now
        changes(tx).facts.extend((p, f"valid time ended at {p.valid_to.isoformat()}", None)
                                 for p in ended if p.valid_to is not None)
        report = cascade(tx, ctx.tenant, known)
        if report is not None and report.facts:
            ledger.audit(tx, ctx.tenant, known, [("maintain", ctx.tenant, {"premises": [p.fact_id for p in ended]})])
        return report or CascadeReport(at=known)

    report = ctx.write(work)
    # a tenant grown past the threshold gets its own vector index (a tenant migration; DDL runs outside the write)
    if search_partition.needs_partition(ctx.db, ctx.tenant):
        search_partition.partition(ctx.db, ctx.tenant)
    return report
