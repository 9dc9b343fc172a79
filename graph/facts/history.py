"""A fact's history: every version, oldest belief first, read whole or one page at a time by key."""

from __future__ import annotations

from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import FAR_FUTURE, fact_from_row
from credo.schema.facts import Fact
from credo.schema.pages import instant_key

READ_HISTORY = load("read_history")
ALL = 2**62  # `$limit` of a whole read (one parameter type whatever the read)


def versions(tx: Tx, tenant: str, fact_id: str, *, after: list | None = None, limit: int = ALL) -> list[Fact]:
    """The fact's versions by (known_from, valid_from, undated last, version id): every one, or at most `limit`
    after the version whose [known_from, valid_from or None, version id] is `after`."""
    known, valid, version = after if after is not None else (None, None, None)
    rows = tx.rows(READ_HISTORY, tenant=tenant, fact_id=fact_id, known_at=FAR_FUTURE, after_known=known,
                   after_valid=valid, after_id=version, limit=limit)
    return [fact_from_row(r["fact"]) for r in rows]


def history_key(fact: Fact) -> list[str]:
    """The key a page of history ends on (read back by `schema.pages.key_parts`)."""
    return [_text(fact.known_from), _text(fact.valid_from), fact.version_id]


def _text(at: object) -> str:
    return instant_key(at) if isinstance(at, datetime) else ""  # an unreadable row's instant may be anything
