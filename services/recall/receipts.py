"""Read receipts: a read given a `task` records which versions it served, in the same transaction as their usage
count, so `served_to(task)` answers what the agent knew when it acted and `tasks_served(id)` which tasks were
served a version (forgetting needs it). A receipt records its asker's clearance: its question (which may name what
only the asker may see) is shown only to a reader who may see what the asker could, else it reads `query: null,
query_withheld: true` (cypher/fragments/visible_question.cypher).

`record(w, task, version_ids, operation)` is the step any read path calls inside a write; `served(ctx, ...)` is the
entry point that opens that write after the read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from credo.graph.core import versions as fact_repo
from credo.graph.core import ledger
from credo.graph.recall import receipts as receipt_repo
from credo.schema import commands_recall as cr
from credo.schema.errors import NotFound
from credo.schema.pages import After, checked_key, keyed_page
from credo.schema.names import check_ref, clean_name
from credo.schema.receipts import ReadReceipt
from credo.services.recall import utility
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write


def record(
    w: Write, task: str, version_ids: Sequence[str], operation: str, *, query: str | None = None,
    valid_at: datetime | None = None, known_at: datetime | None = None, parts: Sequence[str | None] | None = None,
) -> str:
    """Step: record that `operation` served `version_ids` (in rank order) to `task` at the write's known time, and
    count one use of each; `parts` names the package part each was served in. Returns the receipt id."""
    task = clean_name(task, "task")
    receipt_id = ledger.new_id("rr")
    cipher = w.tx.state.cipher  # crypto-erasure: the question is sealed (services/core/crypto.py)
    query = cipher.seal_question(w.tenant, receipt_id, query) if cipher is not None else query
    labels = list(parts) if parts is not None else [None] * len(version_ids)
    served = list(dict.fromkeys(zip(version_ids, labels)))  # a version served twice in one read counts once
    receipt_repo.create(w.tx, w.tenant, w.known, receipt_id=receipt_id, task=task, operation=operation,
                        query=query, valid_at=valid_at, known_at=known_at, served=served)
    ledger.audit(w.tx, w.tenant, w.known, [("read_receipt", receipt_id,
                                            {"task": task, "operation": operation, "versions": len(served)})])
    # each served memory counts one neutral recall in the utility ledger, re-classified later by feedback
    found = fact_repo.versions_by_ids(w.tx, w.tenant, [v for v, _part in served])
    fact_ids = list(dict.fromkeys(found[v].fact_id for v, _part in served if v in found))
    utility.recall_step(w.tx, w.tenant, w.known, receipt_id=receipt_id, fact_ids=fact_ids)
    return receipt_id


def served(
    ctx: Context, *, task: str, version_ids: Sequence[str], operation: str, query: str | None = None,
    valid_at: datetime | None = None, known_at: datetime | None = None, parts: Sequence[str | None] | None = None,
) -> str:
    """Entry point: open one write (the tenant's commit clock gives the receipt its known time) and `record`."""
    task = clean_name(task, "task")
    return ctx.write(lambda w: record(w, task, version_ids, operation, query=query, valid_at=valid_at,
                                      known_at=known_at, parts=parts))


def served_to(ctx: Context, cmd: cr.ServedToQuery, *, page: After | None = None) -> list[ReadReceipt]:
    """What a task was served: its receipts, oldest first, each with the versions as stored; NotFound if none. A
    `page` is cut in the query by key (`.next_after`)."""
    task = clean_name(cmd.task, "task")
    if page is None:
        found = ctx.read(lambda tx: receipt_repo.served_to(tx, ctx.tenant, task))
    else:
        found = keyed_page(ctx.read(lambda tx: receipt_repo.served_to(tx, ctx.tenant, task, after=checked_key(page, "instant", "text"),
                                                                      limit=page.limit + 1)),
                           page, key=receipt_repo.receipt_key)
    if not found and (page is None or page.key is None):
        raise NotFound("task", task)
    return found


def tasks_served(ctx: Context, cmd: cr.TasksServedQuery, *, page: After | None = None) -> list[ReadReceipt]:
    """Which tasks were served a fact (any version) or one version: the receipts, each with only those versions. A
    `page` is cut in the query by key (`.next_after`)."""
    ref = check_ref(cmd.fact_id)

    def work(tx) -> list[ReadReceipt]:
        if not receipt_repo.fact_exists(tx, ctx.tenant, ref):
            raise NotFound("fact", ref)
        if page is None:
            return receipt_repo.tasks_served(tx, ctx.tenant, ref)
        return keyed_page(receipt_repo.tasks_served(tx, ctx.tenant, ref, after=checked_key(page, "instant", "text"), limit=page.limit + 1),
                          page, key=receipt_repo.receipt_key)

    return ctx.read(work)
