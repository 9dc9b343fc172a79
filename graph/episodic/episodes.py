"""Episodes read by time: the timeline scan of an entity or a session, and the episodes a roll-off weighs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import FAR_FUTURE, fact_from_row, instant
from credo.schema.facts import Fact
from credo.schema.pages import instant_key

READ_TIMELINE = load("read_timeline")
READ_AGING_EPISODES = load("read_aging_episodes")
ALL = 2**62  # `$limit` of a whole read (one parameter type whatever the read)


@dataclass(frozen=True)
class Aging:
    """An episode as a roll-off weighs it: its fact, its scope, when it happened and when it was first known."""

    fact_id: str
    scope: dict[str, str]
    valid_from: datetime | None
    known_from: datetime


def timeline(tx: Tx, tenant: str, *, subject_ids: list[str] | None, session_id: str | None, known_at: datetime | None,
             states: list[str], start: datetime | None, end: datetime | None, after: list[str] | None = None,
             limit: int = ALL) -> list[Fact]:
    """The episodes of the entity's ids or of the session in time order, at most `limit` after the key `after`."""
    rows = tx.rows(READ_TIMELINE, tenant=tenant, subject_ids=subject_ids, session_id=session_id,
                   known_at=known_at or FAR_FUTURE, states=states, after=after, limit=limit,
                   **{"from": None if start is None else start.isoformat(), "to": None if end is None else end.isoformat()})
    return [fact_from_row(r["fact"]) for r in rows]


def timeline_key(fact: Fact) -> list[str]:
    """The key a page of a timeline ends on (read back by `schema.pages.key_parts`)."""
    return [instant_key(fact.valid_from or fact.known_from), instant_key(fact.known_from), fact.version_id]


def aging(tx: Tx, tenant: str, states: list[str]) -> list[Aging]:
    """Every episode the caller may see that is not forgotten, with what its age is measured from."""
    return [Aging(r["fact_id"], json.loads(r["scope_key"] or "{}"),
                  None if r["valid_from"] is None else instant(r["valid_from"]), instant(r["known_from"]))
            for r in tx.rows(READ_AGING_EPISODES, tenant=tenant, states=states)]
