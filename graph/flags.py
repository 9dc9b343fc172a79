"""State flags in the graph: a lifecycle state change of a fact version, recorded beside the immutable version.

Shape: `(:Fact version)-[:FLAGGED {state, from_state, cause, actor, reason, verified_at, known_from, known_to}]->
(:StateChange {tenant, change_id, kind, actor, reason, at})`. The edge is the flag: it has its own known interval,
so a read at any known time takes the flag believed then (cypher/fragments/flag_at.cypher), else the version's own
state. One StateChange node per flagging write (a cascade, a deprecation, a quarantine) groups its flags and says
who did it and why; the per-version cost is one edge (no new node, no full-text or vector index entry, no copied
SOURCED_FROM / DEPENDS_ON / ABOUT edges), which is what makes a cascade of 10,000 dependents cheap. At most one
flag of a version is open (known_to null); writing a new one closes the previous one in the same query.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.db import Tx
from credo.graph.ledger import new_id
from credo.graph.records import fact_from_row, readable
from credo.schema.errors import ConflictError
from credo.schema.facts import Fact

CREATE_STATE_FLAGS = load("create_state_flags")
CREATE_SUMMARY_FLAGS = load("create_summary_flags")
READ_FACTS_BY_SOURCE = load("read_facts_by_source")


@dataclass(frozen=True)
class FlagRow:
    """One version to flag: its id, the state it moves to, the state it leaves, why (the stale cause) and, for a
    re-verification, when it was verified."""

    version_id: str
    state: str
    from_state: str
    cause: str | None = None
    verified_at: datetime | None = None


def write(tx: Tx, tenant: str, known: datetime, rows: list[FlagRow], *, kind: str, actor: str | None,
          reason: str | None, summaries: bool = False) -> dict[str, str]:
    """Flag the fact (or, with `summaries`, summary) versions in one UNWIND query; refuse if any stopped being
    believed meanwhile. Returns each flagged fact version's statement by version id ({} for summaries)."""
    if not rows:
        return {}
    change, params = _params(rows, kind, actor, reason, summaries)
    query = CREATE_SUMMARY_FLAGS if summaries else CREATE_STATE_FLAGS
    return _checked(rows, tx.one(query, tenant=tenant, known=known, change=change, rows=params))


def _params(rows: list[FlagRow], kind: str, actor: str | None, reason: str | None,
            summaries: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    change = {"change_id": new_id("sc"), "kind": kind, "actor": actor, "reason": reason}
    return change, [{"version_id": r.version_id, "state": r.state, "from_state": r.from_state, "cause": r.cause}
                    | ({} if summaries else {"verified_at": r.verified_at}) for r in rows]


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


def defer(tx: Tx, tenant: str, rows: list[FlagRow], *, kind: str, actor: str | None, reason: str | None) -> None:
    """Flag fact versions as `write` does, in the statement that closes this write (nothing to defer: no-op)."""
    if rows:
        change, params = _params(rows, kind, actor, reason, False)
        setattr(tx, "credo_deferred_flags", Deferred(rows, change, params))


def deferred(tx: Tx) -> Deferred | None:
    """The flags this write left to its closing statement, if any."""
    return getattr(tx, "credo_deferred_flags", None)


def deferred_statements(tx: Tx) -> dict[str, str]:
    """The statements of the versions the closing statement flagged, by version id."""
    found = deferred(tx)
    return found.statements if found else {}


def by_source(tx: Tx, tenant: str, source_id: str) -> list[Fact]:
    """Current versions of the facts a source is evidence for, in their state believed now."""
    return list(readable([fact_from_row(r["fact"]) for r in tx.rows(READ_FACTS_BY_SOURCE, tenant=tenant,
                                                                     source_id=source_id)], "quarantine"))
