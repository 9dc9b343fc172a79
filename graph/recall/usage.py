"""The utility ledger's nodes: one :Recall per (read receipt, fact) served, one :Usage per memory (its tier and
counts), and the tenant's :MemoryPolicy (episodic TTL)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native
from credo.schema.utility import MemoryUsage, Outcome, Tier

RECORD_RECALLS = load("record_recalls")
READ_RECALL = load("read_recall")
CLASSIFY_RECALL = load("classify_recall")
READ_MEMORIES = load("read_memories")
UPDATE_USAGE = load("update_usage")
READ_MEMORY_POLICY = load("read_memory_policy")
SET_MEMORY_POLICY = load("set_memory_policy")


def record_recalls(tx: Tx, tenant: str, known: datetime, receipt_id: str, fact_ids: list[str]) -> int:
    """Count each fact a receipt served as one neutral recall (once per receipt); how many were new."""
    row = tx.one(RECORD_RECALLS, tenant=tenant, receipt_id=receipt_id, fact_ids=list(dict.fromkeys(fact_ids)),
                 known=known, day=known.date().isoformat())
    return int(row["counted"]) if row else 0


def recall(tx: Tx, tenant: str, receipt_id: str, fact_id: str) -> tuple[str, float] | None:
    """(outcome, the memory's utility) of one recall, or None when the receipt did not serve that fact."""
    row = tx.one(READ_RECALL, tenant=tenant, receipt_id=receipt_id, fact_id=fact_id)
    return (row["outcome"], float(row["utility"] or 0.0)) if row else None


def classify(tx: Tx, tenant: str, known: datetime, receipt_id: str, fact_id: str, outcome: str,
             utility: float) -> None:
    """Store a recall's new outcome and its memory's new utility (the same row, re-classified)."""
    tx.one(CLASSIFY_RECALL, tenant=tenant, receipt_id=receipt_id, fact_id=fact_id, outcome=outcome, utility=utility,
           known=known)


def memories(tx: Tx, tenant: str, kinds: list[str], fact_id: str | None = None) -> list[MemoryUsage]:
    """The memories of these kinds (all with a believed version, or the one named, believed or not), each with its
    usage (tier working until swept)."""
    rows = tx.rows(READ_MEMORIES, tenant=tenant, kinds=kinds, fact_id=fact_id, believed=fact_id is None)
    return [_usage(r) for r in rows]


def update(tx: Tx, tenant: str, rows: list[dict[str, Any]]) -> None:
    """Store tiers and TTL due times decided by a sweep: {fact_id, tier, tier_since, ttl_due_at}."""
    if rows:
        tx.one(UPDATE_USAGE, tenant=tenant, rows=rows)


def episodic_ttl_days(tx: Tx, tenant: str) -> int | None:
    """The tenant's episodic TTL in days (None: no roll-off)."""
    row = tx.one(READ_MEMORY_POLICY, tenant=tenant)
    return int(row["episodic_ttl_days"]) if row and row["episodic_ttl_days"] else None


def set_episodic_ttl(tx: Tx, tenant: str, known: datetime, days: int) -> None:
    """Set the tenant's episodic TTL (0: none)."""
    tx.one(SET_MEMORY_POLICY, tenant=tenant, episodic_ttl_days=days, known=known)


def _usage(row: dict[str, Any]) -> MemoryUsage:
    counts: dict[str, int] = {}
    for outcome in row["recalls"]:
        counts[outcome] = counts.get(outcome, 0) + 1
    created = native(row["created"])
    confidence = row["confidence"]
    return MemoryUsage(fact_id=row["fact_id"], kind=row["kind"], state=row["state"], created=created,
                       placed=row["tier"] is not None, tier=Tier(row["tier"] or Tier.WORKING), tier_since=native(row["tier_since"]) or created,
                       uses=int(row["uses"]), active_days=int(row["active_days"]), last_used=native(row["last_used"]),
                       importance=float(confidence) if confidence is not None else 0.5,
                       utility=float(row["utility"]), recalls={o: n for o, n in sorted(counts.items())
                                                               if o in set(Outcome)},
                       ttl_due_at=native(row["ttl_due_at"]))
