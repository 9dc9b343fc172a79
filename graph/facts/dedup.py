"""What dedup at write reads: near-duplicate candidates and the sources a version was stated by."""

from __future__ import annotations

from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx

READ_DEDUP_CANDIDATES = load("read_dedup_candidates")
READ_SOURCE_KEYS = load("read_source_keys")


def candidates(tx: Tx, tenant: str, rows: list[tuple[list[str], str, str]], states: list[str]) -> list[list[dict[str, Any]]]:
    """Per (subject ids, predicate, scope key) row, the served semantic text-valued versions believed now."""
    if not rows:
        return []
    found: list[list[dict[str, Any]]] = [[] for _ in rows]
    params = [{"subject_ids": ids, "predicate": p, "scope_key": s} for ids, p, s in rows]
    for record in tx.rows(READ_DEDUP_CANDIDATES, tenant=tenant, states=states, rows=params):
        found[record["at"]] = [dict(c, aliases=list(c["aliases"] or [])) for c in record["found"]]
    return found


def source_keys(tx: Tx, version_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """version_id -> the sources of its believed SOURCED_FROM edges (source_id, kind, author, uri, title, span)."""
    if not version_ids:
        return {}
    return {r["version_id"]: list(r["sources"]) for r in tx.rows(READ_SOURCE_KEYS, version_ids=version_ids)}
