"""State flags in the graph: a lifecycle state change of a fact version, recorded beside the immutable version.

Shape: `(:Fact version)-[:FLAGGED {state, cause, path, known_from, known_to}]->(:StateChange {tenant, change_id,
kind, actor, reason, verified_at, causes, roots, at})`. The edge is the flag: it has its own known interval, so a
read at any known time takes the flag believed then (cypher/fragments/flag_at.cypher), else the version's own
state; it holds only what differs per version: the state, the known interval and the cause reference (`cause`, an
index into the node's `causes` lines, absent for the first, and for a cascade `path`, the fact ids from the root to
the version as the text readers show, joined by " -> ": one string, not a list of ids, migration 0024). One
StateChange node per flagging write (a cascade, a deprecation, a quarantine) holds what its flags share: who did it
and why, when it was verified, the cause lines and the root facts they name. The per-version cost is one edge of
three or four properties (no new node, no full-text or vector index entry, no copied SOURCED_FROM / DEPENDS_ON /
ABOUT edges), which is what makes a cascade of 10,000 dependents cheap. At most one flag of a version is open
(known_to null); writing a new one closes the previous one in the same query (only where the version has a flag).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.graph.core.records import fact_from_row, readable
from credo.schema.errors import ConflictError
from credo.schema.facts import Fact

CREATE_STATE_FLAGS = load("create_state_flags")
CREATE_SUMMARY_FLAGS = load("create_summary_flags")
READ_FACTS_BY_SOURCE = load("read_facts_by_source")


@dataclass(frozen=True)
class FlagRow:
    """One version to flag: its id, the state it moves to, the state it leaves (checked, not stored: the previous
    flag or the version says it), why (the stale cause line, shared by the flags of one root) and, for a cascade,
    the path from that root."""

    version_id: str
    state: str
    from_state: str
    cause: str | None = None
    path: tuple[str, ...] | None = None


def write(tx: Tx, tenant: str, known: datetime, rows: list[FlagRow], *, kind: str, actor: str | None,
          reason: str | None, verified_at: datetime | None = None, summaries: bool = False) -> dict[str, str]:
    """Flag the fact (or, with `summaries`, summary) versions in one UNWIND query; refuse if any stopped being
    believed meanwhile. Returns each flagged fact version's statement by version id ({} for summaries)."""
    if not rows:
        return {}
    change, params = _params(rows, kind, actor, reason, verified_at)
    query = CREATE_SUMMARY_FLAGS if summaries else CREATE_STATE_FLAGS
    return _checked(rows, tx.one(query, tenant=tenant, known=known, change=change, rows=params))


def _params(rows: list[FlagRow], kind: str, actor: str | None, reason: str | None,
            verified_at: datetime | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state change (what every flag of the write shares: each distinct cause line once, with the root its
    paths start from) and one small row per version (state, cause index, path)."""
    causes, roots, indexes = cause_lines([(r.cause, r.path[0] if r.path else None) for r in rows])
    params = [{"version_id": r.version_id, "state": r.state, "cause": index, "path": " -> ".join(r.path) if r.path else None}
              for r, index in zip(rows, indexes)]
    change = {"change_id": new_id("sc"), "kind": kind, "actor": actor, "reason": reason, "verified_at": verified_at,
              "causes": causes, "roots": roots}
    return change, params


def cause_lines(flags: list[tuple[str | None, str | None]]) -> tuple[list[str], list[str], list[int | None]]:
    """For the (cause line or None, root fact id or None) of each flag of one state change: the node's distinct
    `causes` lines and their `roots` ("" for none), and each flag's index into them. The first line (a cascade from
    one root: every flag's) is named by no index at all, one property less per edge; a change whose flags do not all
    name a cause keeps line 0 empty, for those that name none."""
    named = [cause is not None for cause, _root in flags]
    mixed = any(named) and not all(named)
    causes: dict[str, int] = {"": 0} if mixed else {}
    roots: list[str] = [""] if mixed else []
    indexes: list[int | None] = []
    for cause, root in flags:
        index = None
        if cause is not None:
            index = causes.get(cause)
            if index is None:
                index = causes[cause] = len(causes)
                roots.append(root or "")
        indexes.append(index or None)
    return list(causes), roots, indexes


def _checked(rows: list[FlagRow], row: dict[str, Any] | None) -> dict[str, str]:
    """Refuse (ConflictError) if a version to flag stopped being believed meanwhile; else statements by version."""
    flagged = set(row["flagged"]) if row else set()
    missing = [r.version_id for r in rows if r.version_id not in flagged]
    if missing:
        raise ConflictError(missing[0], "this version is no longer current (another write changed it first)")
    return dict(zip(row["flagged"], row.get("statements") or [])) if row else {}


@dataclass
class Deferred:
    """Fact flags left to the write's closing statement (`ledger.finish`): one round trip fewer per cascade."""

    rows: list[FlagRow]
    change: dict[str, Any]
    params: list[dict[str, Any]]
    statements: dict[str, str] = field(default_factory=dict)
    done: bool = False

    def written(self, row: dict[str, Any] | None) -> None:
        """Record what the closing statement flagged; refuse the write if a version was no longer current."""
        self.done = True
        self.statements = _checked(self.rows, row)


def defer(tx: Tx, tenant: str, rows: list[FlagRow], *, kind: str, actor: str | None, reason: str | None,
          verified_at: datetime | None = None) -> None:
    """Flag fact versions as `write` does, in the statement that closes this write (nothing to defer: no-op)."""
    if rows:
        change, params = _params(rows, kind, actor, reason, verified_at)
        tx.state.deferred_flags = Deferred(rows, change, params)


def deferred_statements(tx: Tx) -> dict[str, str]:
    """The statements of the versions the closing statement flagged, by version id."""
    found = tx.state.deferred_flags
    return found.statements if found else {}


def by_source(tx: Tx, tenant: str, source_id: str) -> list[Fact]:
    """Current versions of the facts a source is evidence for, in their state believed now."""
    return list(readable([fact_from_row(r["fact"]) for r in tx.rows(READ_FACTS_BY_SOURCE, tenant=tenant,
                                                                     source_id=source_id)], "quarantine"))
