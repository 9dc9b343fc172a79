"""Read receipts in the graph: (:ReadReceipt)-[:FOR_TASK]->(:Task), (:ReadReceipt)-[:SERVED {rank, part}]->(:Fact)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.clearance import clearance_of
from credo.graph.core.db import Tx
from credo.graph.core.records import fact_from_row, instant, readable
from credo.graph.core.versions import ALL
from credo.schema.receipts import ReadReceipt

CREATE_READ_RECEIPT = load("create_read_receipt")
READ_SERVED_TO = load("read_served_to")
READ_TASKS_SERVED = load("read_tasks_served")
READ_FACT_EXISTS = load("read_fact_exists")


def create(
    tx: Tx, tenant: str, known: datetime, *, receipt_id: str, task: str, operation: str, query: str | None,
    valid_at: datetime | None, known_at: datetime | None, served: list[tuple[str, str | None]],
) -> int:
    """Write one receipt linking the served (version_id, part) rows in rank order; bump their usage count; it
    records the asker's clearance (the transaction's), which decides who may be shown its question.
    Returns how many versions were linked (another tenant's ids are never linked)."""
    rows = [{"version_id": v, "rank": rank, "part": part} for rank, (v, part) in enumerate(served)]
    row = tx.one(CREATE_READ_RECEIPT, tenant=tenant, known=known, receipt_id=receipt_id, task=task,
                 operation=operation, question=query, clearance=clearance_of(tx), valid_at=valid_at,
                 known_at=known_at, rows=rows)
    return int(row["served"]) if row else 0


def served_to(tx: Tx, tenant: str, task: str, *, after: list[str] | None = None, limit: int = ALL) -> list[ReadReceipt]:
    """The receipts of the task, oldest first, with their served versions: every one, or at most `limit` after the
    one keyed `after` ([at, receipt id], `receipt_key`)."""
    return [_receipt(r) for r in tx.rows(READ_SERVED_TO, tenant=tenant, task=task, after=after, limit=limit)]


def tasks_served(tx: Tx, tenant: str, ref: str, *, after: list[str] | None = None,
                 limit: int = ALL) -> list[ReadReceipt]:
    """The receipts that served a version of the fact (or the version) `ref`, oldest first: every one, or at most
    `limit` after the one keyed `after` ([at, receipt id], `receipt_key`)."""
    return [_receipt(r) for r in tx.rows(READ_TASKS_SERVED, tenant=tenant, ref=ref, after=after, limit=limit)]


def receipt_key(receipt: ReadReceipt) -> list[str]:
    """A receipt's place in the order of the receipt listings (known time, then id), as a page's key."""
    return [receipt.at.isoformat(), receipt.receipt_id]


def fact_exists(tx: Tx, tenant: str, ref: str) -> bool:
    """Whether the tenant has a fact or version with this id."""
    row = tx.one(READ_FACT_EXISTS, tenant=tenant, ref=ref)
    return bool(row and row["found"])


def _receipt(row: dict[str, Any]) -> ReadReceipt:
    r = row["receipt"]
    point = {k: None if r.get(k) is None else instant(r[k]) for k in ("valid_at", "known_at", "at")}
    versions = readable([fact_from_row(f) for f in row["facts"]], "read receipts")
    return ReadReceipt(receipt_id=r["receipt_id"], task=r["task"], operation=r["operation"], query=r.get("query"),
                       query_withheld=bool(r.get("query_withheld")), versions=list(versions), **point)
