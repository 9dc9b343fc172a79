"""The kinds of evidence behind versions: what the read-time marks of evidence by consequence and weak relations
need (services/facts/evidence_rules.py), one round trip for a whole answer."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import FAR_FUTURE

READ_EVIDENCE_SOURCES = load("read_evidence_sources")


def sources(tx: Tx, version_ids: list[str], known_at: datetime | None) -> dict[str, list[dict[str, Any]]]:
    """version_id -> its sources the caller may see, believed at known_at ({source_id, kind, origin, author, uri,
    title}; no text); a version with none maps to []."""
    if not version_ids:
        return {}
    rows = tx.rows(READ_EVIDENCE_SOURCES, version_ids=list(dict.fromkeys(version_ids)),
                   known_at=(known_at or FAR_FUTURE).isoformat())
    return {r["version_id"]: [s for s in r["sources"] if s] for r in rows}
