"""The belief diff in the graph: the versions, state flags and disputes that changed inside a known window, as the
caller may see them (each query applies the clearance rule)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import fact_from_row, native
from credo.graph.core.versions import ALL
from credo.schema.diff import Dispute, FlagRaised, Link, TouchedVersion

READ_BELIEF_VERSIONS = load("read_belief_versions")
READ_BELIEF_FLAGS = load("read_belief_flags")
READ_BELIEF_DISPUTES = load("read_belief_disputes")


def _window(tenant: str, known_a: datetime, known_b: datetime, subject_ids: list[str] | None,
            scope_key: str | None, limit: int) -> dict[str, Any]:
    return {"tenant": tenant, "known_a": known_a, "known_b": known_b, "subject_ids": subject_ids,
            "scope_key": scope_key, "limit": limit}


def versions(tx: Tx, tenant: str, known_a: datetime, known_b: datetime, *, subject_ids: list[str] | None = None,
             scope_key: str | None = None, limit: int = ALL) -> list[TouchedVersion]:
    """Versions whose belief began or ended in (known_a, known_b], with their SUPERSEDES edges and whether an
    earlier version of their fact is visible; oldest first."""
    rows = tx.rows(READ_BELIEF_VERSIONS, **_window(tenant, known_a, known_b, subject_ids, scope_key, limit))
    return [TouchedVersion(fact=fact_from_row(r["fact"]), supersedes=[Link(**s) for s in r["supersedes"]],
                           earlier=r["earlier"]) for r in rows]


def flags(tx: Tx, tenant: str, known_a: datetime, known_b: datetime, *, subject_ids: list[str] | None = None,
          scope_key: str | None = None, limit: int = ALL) -> list[FlagRaised]:
    """State flags drawn in (known_a, known_b] on visible fact versions, each with its cause line (and path)."""
    rows = tx.rows(READ_BELIEF_FLAGS, **_window(tenant, known_a, known_b, subject_ids, scope_key, limit))
    return [FlagRaised(fact=fact_from_row(r["fact"]), state=r["state"], at=native(r["at"]), kind=r["kind"],
                       cause=_cause(r["cause"], r["path"]), reason=r["reason"]) for r in rows]


def _cause(line: str | None, path: str | None) -> str | None:
    """A cascade flag's cause line with the path from its root (stored as the text shown: migration 0024), as
    `stale()` shows it (graph/core/records.py)."""
    line = line or None  # an empty line 0: the flag names no cause
    return f"{line}; path {path}" if line is not None and path else line


def disputes(tx: Tx, tenant: str, known_a: datetime, known_b: datetime, *, subject_ids: list[str] | None = None,
             scope_key: str | None = None, limit: int = ALL) -> list[Dispute]:
    """Dispute edges opened (first drawn) or resolved in (known_a, known_b], both sides visible."""
    rows = tx.rows(READ_BELIEF_DISPUTES, **_window(tenant, known_a, known_b, subject_ids, scope_key, limit))
    return [Dispute(conflict_id=r["conflict_id"], opened_at=native(r["opened_at"]), resolved_at=native(r["resolved_at"]),
                    decision=r["decision"], challenger=fact_from_row(r["challenger"]),
                    established=fact_from_row(r["established"])) for r in rows]
