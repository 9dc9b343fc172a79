"""Conflicts kept for a decision: the dispute edges between a challenger version and the established ones, read
and closed by an explicit decision (the rule that finds them: services/facts/rules.py `decide_write`)."""

from __future__ import annotations

from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import fact_from_row, native, readable
from credo.schema.facts import Conflict
from credo.schema.pages import instant_key

CREATE_CONFLICTS = load("create_conflicts")
READ_CONFLICTS = load("read_conflicts")
CLOSE_CONFLICT = load("close_conflict")
ALL = 2**62  # `$limit` of a whole read (one parameter type whatever the read)


def open_conflicts(tx: Tx, known: datetime, rows: list[tuple[str, str, str]]) -> None:
    """Create (conflict_id, challenger version, established version) dispute edges."""
    if rows:
        tx.one(
            CREATE_CONFLICTS, known=known,
            rows=[{"conflict_id": c, "challenger_id": ch, "established_id": e} for c, ch, e in rows],
        )


def conflicts(tx: Tx, tenant: str, *, conflict_id: str | None = None, open_only: bool = True) -> list[Conflict]:
    """Conflicts of the tenant (open ones by default): one entry per dispute edge, oldest conflict first."""
    return [c for _key, edges in disputes(tx, tenant, conflict_id=conflict_id, open_only=open_only) for c in edges]


def disputes(tx: Tx, tenant: str, *, conflict_id: str | None = None, open_only: bool = True, after: list | None = None,
             limit: int = ALL) -> list[tuple[list[str], list[Conflict]]]:
    """The tenant's conflicts by (opened, id), each with its key and one entry per dispute edge (a pair with an
    unreadable side is left out): every one, or at most `limit` after the conflict whose [opened, id] is `after`."""
    opened, after_id = after if after is not None else (None, None)
    rows = tx.rows(READ_CONFLICTS, tenant=tenant, conflict_id=conflict_id, open_only=open_only,
                   after_opened=opened, after_id=after_id, limit=limit)
    found: list[tuple[list[str], list[Conflict]]] = []
    for row in rows:
        pairs = [(r, fact_from_row(r["challenger"]), fact_from_row(r["established"])) for r in row["edges"]]
        readable([f for _r, *two in pairs for f in two], "conflicts")  # names them; a pair with one is left out
        found.append(([instant_key(native(row["opened_at"])), row["conflict_id"]], [
            Conflict(conflict_id=row["conflict_id"], status=r["status"], decision=r["decision"],
                     opened_at=native(r["opened_at"]), challenger=challenger, established=established,
                     drift=row.get("drift"))
            for r, challenger, established in pairs
            if challenger.unreadable is None and established.unreadable is None
        ]))
    return found


def close_conflict(tx: Tx, known: datetime, conflict_id: str, decision: str) -> int:
    """Mark a conflict resolved; returns how many dispute edges closed."""
    row = tx.one(CLOSE_CONFLICT, conflict_id=conflict_id, decision=decision, known=known)
    return row["closed"] if row else 0
