"""The reads a context package needs beside the as-of reads: names in a question, corrected or retracted versions,
how versions stopped applying, and the sources and latest verdicts of many versions at once."""

from __future__ import annotations

from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import FAR_FUTURE, fact_from_row, instant, readable
from credo.graph.verify.verifications import verified_from_row
from credo.schema.context_package import ContextSource
from credo.schema.facts import Fact
from credo.schema.verify import VerifiedBy

READ_ENTITIES_BY_NORMS = load("read_entities_by_norms")
READ_CONTEXT_CLOSED = load("read_context_closed")
READ_CONTEXT_LINKS = load("read_context_links")
READ_CONTEXT_SOURCES = load("read_context_sources")

Successor = tuple[str, "datetime | None", str]  # (kind, at, statement)


def _point(known_at: datetime | None) -> str:
    return (known_at or FAR_FUTURE).isoformat()


def names_of_entities(tx: Tx, tenant: str, norms: list[str]) -> set[str]:
    """The normalised names among `norms` that name an entity (or an alias) of the tenant."""
    if not norms:
        return set()
    return {r["norm"] for r in tx.rows(READ_ENTITIES_BY_NORMS, tenant=tenant, norms=norms)}


def closed(tx: Tx, tenant: str, entity_ids: list[str], known_at: datetime | None, ended_by: list[str]) -> list[Fact]:
    """Versions about the entities no longer believed at known_at because they ended by one of `ended_by`."""
    rows = tx.rows(READ_CONTEXT_CLOSED, tenant=tenant, entity_ids=entity_ids, known_at=_point(known_at),
                   ended_by=ended_by)
    return list(readable([fact_from_row(r["fact"]) for r in rows], "context package"))


def links(tx: Tx, version_ids: list[str], known_at: datetime | None
          ) -> dict[str, tuple[list[Successor], tuple[str | None, str | None] | None]]:
    """version_id -> (successors from other facts, (ended_by, end_reason) of the version it was cut from)."""
    if not version_ids:
        return {}
    found = {}
    for r in tx.rows(READ_CONTEXT_LINKS, version_ids=version_ids, known_at=_point(known_at)):
        successors = [(s["kind"], None if s["at"] is None else instant(s["at"]), s["statement"])
                      for s in r["successors"] if s]
        p = r["predecessor"]
        found[r["version_id"]] = (successors, (p["ended_by"], p["end_reason"]) if p else None)
    return found


def sources(tx: Tx, version_ids: list[str], known_at: datetime | None
            ) -> tuple[dict[str, list[ContextSource]], dict[str, VerifiedBy]]:
    """version_id -> its sources believed at known_at (quote and message pointer); and version_id -> its latest
    verdict known then, for the versions that have one (in the same query: no round trip of its own)."""
    if not version_ids:
        return {}, {}
    found: dict[str, list[ContextSource]] = {}
    verdicts: dict[str, VerifiedBy] = {}
    for r in tx.rows(READ_CONTEXT_SOURCES, version_ids=version_ids, known_at=_point(known_at)):
        found[r["version_id"]] = [
            ContextSource(**{**s, "at": None if s.get("at") is None else instant(s["at"])}) for s in r["sources"] if s]
        if r["verification"] is not None:
            verdicts[r["version_id"]] = verified_from_row(r["verification"])
    return found, verdicts
