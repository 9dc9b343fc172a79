"""An entity's relations at a (valid, known) point, one page at a time, cut in the query by key."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import FAR_FUTURE, fact_from_row
from credo.schema.facts import Fact
from credo.schema.pages import instant_key

READ_RELATIONS_PAGE = load("read_relations_page")


@dataclass(frozen=True)
class Row:
    """One relation of a page as read: its fact (a version as stored, an unreadable one marked), whether it is
    incoming, its predicate's inverse name (incoming), and whether the version rests on premises or has a source."""

    fact: Fact
    incoming: bool
    inverse: str | None
    rank: int  # its part of the order: 0 dated out, 1 dated in, 2 undated out, 3 undated in
    premised: bool
    sourced: bool


def relations_page(
    tx: Tx, tenant: str, norm: str, *, valid_at: datetime, known_at: datetime | None, states: list[str],
    after: list[str] | None, limit: int,
) -> list[Row] | None:
    """At most `limit` relations of the entity a normalised name resolves to, in the whole answer's order, after the
    one keyed `after` (`relation_key`: [rank, valid_from or "", known_from, version id], checked); None when no entity
    has this name. One round trip."""
    rank, valid, known, version = after if after is not None else (None, None, None, None)
    rows = tx.rows(
        READ_RELATIONS_PAGE, tenant=tenant, norm=norm, valid_at=valid_at.isoformat(),
        known_at=(known_at or FAR_FUTURE).isoformat(), states=states, far_future=FAR_FUTURE.isoformat(),
        after_rank=None if rank is None else int(rank), after_valid=valid or None, after_known=known,
        after_id=version, limit=limit,
    )
    if not rows:
        return None
    return [Row(fact_from_row(r["fact"]), r["way"] == 1, r["inverse"], r["rank"], bool(r["fact"]["premised"]),
                bool(r["fact"].get("sourced"))) for r in (row["relation"] for row in rows) if r is not None]


def relation_key(row: Row) -> list[str]:
    """The key a page of relations ends on (read back by `schema.pages.key_parts`)."""
    return [str(row.rank), _text(row.fact.valid_from), _text(row.fact.known_from), row.fact.version_id]


def _text(at: object) -> str:
    return instant_key(at) if isinstance(at, datetime) else ""  # an unreadable row's instant may be anything
