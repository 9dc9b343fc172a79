"""Summary versions in the graph: create with their trace, close, and read as of a known time."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.versions import ALL, close_checked
from credo.graph.core.records import FAR_FUTURE, native, with_flag
from credo.schema.cascade import Summary, TraceItem

CREATE_SUMMARY_VERSIONS = load("create_summary_versions")
CLOSE_SUMMARY_VERSIONS = load("close_summary_versions")
READ_SUMMARIES = load("read_summaries")
READ_SUMMARY_VERSIONS = load("read_summary_versions")
READ_SUMMARIES_DERIVING = load("read_summaries_deriving")
READ_SOURCES_TEXT = load("read_sources_text")

_STORED = ("tenant", "summary_id", "version_id", "topic", "text", "text_hash", "summarizer", "state", "known_from",
           "known_to", "ended_by", "end_reason", "stale_cause")


def summary_from_row(row: dict[str, Any], trace: list[dict[str, Any]]) -> Summary:
    """A Summary model from a map projection (its state flag applied) and its trace edges."""
    row = with_flag(row)
    data = {key: native(row.get(key)) for key in _STORED}
    items = sorted((TraceItem(**t) for t in trace), key=lambda t: (t.kind, t.ref_id, t.version_id))
    return Summary(**{k: v for k, v in data.items() if v is not None}, trace=items)


def create(tx: Tx, summaries: list[Summary]) -> None:
    """Write new summary versions and their DERIVED_FROM trace edges."""
    if not summaries:
        return
    rows = [{"props": {k: v for k, v in s.model_dump(include=set(_STORED)).items() if v is not None},
             "trace": [t.model_dump() for t in s.trace]} for s in summaries]
    tx.one(CREATE_SUMMARY_VERSIONS, rows=rows)


def close(tx: Tx, known: datetime, closing: list[tuple[str, str, str | None]]) -> None:
    """Close (version_id, ended_by, reason) summary versions; refuse if one was closed meanwhile."""
    close_checked(tx, CLOSE_SUMMARY_VERSIONS, known, closing, "summary version")


def listed(tx: Tx, tenant: str, *, known_at: datetime | None, states: list[str], after: list[str] | None = None,
           limit: int = ALL) -> list[Summary]:
    """Summary versions believed at known_at (None = now) in the given states, oldest first: every one, or at most
    `limit` after the one keyed `after` ([known_from, summary id], `summary_key`)."""
    rows = tx.rows(READ_SUMMARIES, tenant=tenant, known_at=known_at or FAR_FUTURE, states=states, after=after,
                   limit=limit)
    return [summary_from_row(r["summary"], r["trace"]) for r in rows]


def summary_key(summary: Summary) -> list[str]:
    """A summary version's place in the order of the summaries listing (known from, then id), as a page's key."""
    return [summary.known_from.isoformat(), summary.summary_id]


def by_ids(tx: Tx, tenant: str, summary_ids: list[str], known_at: datetime | None = None) -> dict[str, Summary]:
    """The version of each summary believed at known_at (None = now)."""
    if not summary_ids:
        return {}
    rows = tx.rows(READ_SUMMARY_VERSIONS, tenant=tenant, summary_ids=sorted(set(summary_ids)),
                   known_at=known_at or FAR_FUTURE)
    return {r["summary"]["summary_id"]: summary_from_row(r["summary"], r["trace"]) for r in rows}


def deriving(tx: Tx, tenant: str, *, fact_ids: list[str], summary_ids: list[str], source_ids: list[str]) -> list[Summary]:
    """Current summaries whose trace names any version of the given facts, summaries or sources."""
    if not (fact_ids or summary_ids or source_ids):
        return []
    rows = tx.rows(READ_SUMMARIES_DERIVING, tenant=tenant, fact_ids=sorted(set(fact_ids)),
                   summary_ids=sorted(set(summary_ids)), source_ids=sorted(set(source_ids)))
    return [summary_from_row(r["summary"], r["trace"]) for r in rows]


def source_texts(tx: Tx, tenant: str, source_ids: list[str]) -> dict[str, str | None]:
    """Each source's text (None once forgotten); absent ids are missing from the result."""
    if not source_ids:
        return {}
    return {r["source_id"]: r["text"] for r in tx.rows(READ_SOURCES_TEXT, tenant=tenant, source_ids=sorted(set(source_ids)))}
