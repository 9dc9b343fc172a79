"""The transition check in the graph: the ledger events of a known window (a hidden one by its known time only),
the grounding of the versions it names, and how many changed versions the caller may not see (each query applies
the clearance rule)."""

from __future__ import annotations

import json
from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native
from credo.schema.transition import Grounding, WindowEvent

READ_TRANSITION_EVENTS = load("read_transition_events")
READ_TRANSITION_VERSIONS = load("read_transition_versions")
READ_TRANSITION_HIDDEN = load("read_transition_hidden")


def events(tx: Tx, tenant: str, known_before: datetime, known_after: datetime, *, scope_key: str | None,
           limit: int) -> tuple[list[WindowEvent], list[datetime]]:
    """The window's events the caller may see, in known-time order, and the known times of those it may not."""
    rows = tx.rows(READ_TRANSITION_EVENTS, tenant=tenant, known_before=known_before, known_after=known_after,
                   scope_key=scope_key, limit=limit)
    seen = [WindowEvent(event_id=r["event_id"], seq=r["seq"], at=native(r["at"]), operation=r["action"],
                        subject_id=r["subject_id"], ids=list(r["ids"] or []), detail=_detail(r["detail"]))
            for r in rows if not r["hidden"]]
    return seen, [native(r["at"]) for r in rows if r["hidden"]]


def _detail(text: str | None) -> dict:
    try:
        value = json.loads(text) if text else {}
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def groundings(tx: Tx, tenant: str, version_ids: list[str],
               known_after: datetime) -> dict[str, tuple[str, datetime, Grounding]]:
    """version id -> (fact id, known_from, what grounds it by `known_after`), for the versions the caller may see."""
    rows = tx.rows(READ_TRANSITION_VERSIONS, tenant=tenant, version_ids=sorted(set(version_ids)),
                   known_after=known_after)
    return {r["version_id"]: (r["fact_id"], native(r["known_from"]),
                              Grounding(version_id=r["version_id"], quotes=r["quotes"], sources=r["sources"],
                                        accepted=r["accepted"])) for r in rows}


def hidden(tx: Tx, tenant: str, known_before: datetime, known_after: datetime, *, scope_key: str | None) -> int:
    """How many versions whose belief began or ended in the window the caller may not see."""
    row = tx.one(READ_TRANSITION_HIDDEN, tenant=tenant, known_before=known_before, known_after=known_after,
                 scope_key=scope_key)
    return int(row["hidden"]) if row else 0
