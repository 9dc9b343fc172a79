"""Sources in the graph: create them, read sessions, link evidence, claim and consume messages."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.records import tombstone_of
from credo.graph.core.db import Tx, cipher_of
from credo.graph.core.records import native
from credo.graph.truth import dependencies
from credo.schema.sources import Source

CREATE_SOURCES = load("create_sources")
READ_SESSION_MESSAGES = load("read_session_messages")
READ_SOURCES = load("read_sources")
LINK_SOURCED_FROM = load("link_sourced_from")
LINK_ACCEPTED_IN = load("link_accepted_in")
CARRY_DEPENDS_ON = load("carry_depends_on")
CLAIM_MESSAGES = load("claim_messages")
RELEASE_CLAIM = load("release_claim")
CONSUME_MESSAGES = load("consume_messages")
CREATE_EPISODE = load("create_episode")

_FIELDS = ("source_id", "tenant", "kind", "text", "title", "uri", "author", "at", "session_id", "generation",
           "index", "role", "origin", "known_from", "consumed_by", "sensitivity", "attested_by")


def text_hash(text: str | None) -> str:
    """Content hash of a source text (the trace a summary keeps of its inputs)."""
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()


def source_from_row(row: dict[str, Any]) -> Source:
    """A Source model from a map projection of a :Source node."""
    return Source(**{k: native(row.get(k)) for k in _FIELDS if row.get(k) is not None}, tombstone=tombstone_of(row))


def claim_of(row: dict[str, Any]) -> tuple[str | None, datetime | None]:
    """(claimed_by, claim_expires) of a message row."""
    return row.get("claimed_by"), native(row.get("claim_expires"))


def create(tx: Tx, tenant: str, known: datetime, rows: list[dict[str, Any]]) -> None:
    """Create Source nodes from property maps (None values are left out)."""
    if rows:
        clean = [{k: v for k, v in r.items() if v is not None} | {"text_hash": text_hash(r.get("text"))} for r in rows]
        cipher = cipher_of(tx)
        if cipher is not None:  # the one encrypt step of a source (crypto-erasure mode)
            clean = [cipher.seal_source(tenant, r) for r in clean]
        tx.one(CREATE_SOURCES, tenant=tenant, known=known, rows=clean)


def session_rows(tx: Tx, tenant: str, session_id: str) -> list[dict[str, Any]]:
    """Raw rows of every message of a session the caller may see (claims and consumed marks included): a message
    it may not see (cypher/fragments/visible_source.cypher) is left out, exactly like a missing one."""
    return session_read(tx, tenant, session_id)[0]


def session_read(tx: Tx, tenant: str, session_id: str) -> tuple[list[dict[str, Any]], set[tuple[int, int]]]:
    """(raw rows of the messages the caller may see, the (generation, index) positions of those it may not)."""
    rows = tx.rows(READ_SESSION_MESSAGES, tenant=tenant, session_id=session_id)
    return ([r["source"] for r in rows if not r["hidden"]],
            {(r["source"]["generation"], r["source"]["index"]) for r in rows if r["hidden"]})


def session_messages(tx: Tx, tenant: str, session_id: str) -> list[Source]:
    """Every message of a session the caller may see, in generation and position order."""
    return [source_from_row(r) for r in session_rows(tx, tenant, session_id)]


def by_ids(tx: Tx, tenant: str, source_ids: list[str]) -> dict[str, Source]:
    """Sources by id that the caller may see (missing ids, and ids of sources it may not see, are absent)."""
    if not source_ids:
        return {}
    rows = tx.rows(READ_SOURCES, tenant=tenant, source_ids=source_ids)
    return {r["source"]["source_id"]: source_from_row(r["source"]) for r in rows}


def link_sourced_from(tx: Tx, known: datetime, rows: list[tuple[str, str, str | None, list[int] | None]]) -> None:
    """(version_id, source_id, quote, span) SOURCED_FROM edges."""
    if rows:
        cipher = cipher_of(tx)
        if cipher is not None:  # the quote is the source's words: sealed under the source's key
            rows = [(v, s, cipher.seal_edge_quote(tx.state.tenant, v, s, q), sp) for v, s, q, sp in rows]
        tx.one(LINK_SOURCED_FROM, known=known,
               rows=[{"version_id": v, "source_id": s, "quote": q, "span": sp} for v, s, q, sp in rows])


def link_accepted_in(tx: Tx, known: datetime, rows: list[tuple[str, str]]) -> None:
    """(version_id, source_id) ACCEPTED_IN edges."""
    if rows:
        tx.one(LINK_ACCEPTED_IN, known=known, rows=[{"version_id": v, "source_id": s} for v, s in rows])


def link_depends_on(tx: Tx, known: datetime, rows: list[tuple[str, str, str]]) -> None:
    """(version_id, premise_version_id, justification) DEPENDS_ON edges, drawn by truth's one writer of them."""
    dependencies.link(tx, known, [{"from_id": v, "to_id": p, "justification": j, "valid_from": None, "valid_to": None}
                                  for v, p, j in rows])


def carry_depends_on(tx: Tx, known: datetime, pairs: list[tuple[str, str]]) -> None:
    """Copy the believed DEPENDS_ON edges of old versions to their (old_id, new_id) replacements, evidence left out."""
    if pairs:
        tx.one(CARRY_DEPENDS_ON, known=known, rows=[{"old_id": o, "new_id": n} for o, n in pairs])


def claim(tx: Tx, source_ids: list[str], claim_id: str, expires: datetime) -> int:
    """Claim unconsumed messages for one extraction run; returns how many were claimed."""
    row = tx.one(CLAIM_MESSAGES, source_ids=source_ids, claim_id=claim_id, claim_expires=expires)
    return row["claimed"] if row else 0


def release(tx: Tx, tenant: str, claim_id: str) -> int:
    """Drop a run's claim (consumed marks untouched)."""
    row = tx.one(RELEASE_CLAIM, tenant=tenant, claim_id=claim_id)
    return row["released"] if row else 0


def consume(tx: Tx, known: datetime, source_ids: list[str], claim_id: str) -> set[str]:
    """Mark messages consumed by the run that holds them; returns the ids actually marked."""
    row = tx.one(CONSUME_MESSAGES, source_ids=source_ids, claim_id=claim_id, known=known)
    return set(row["consumed"]) if row else set()


def create_episode(tx: Tx, tenant: str, known: datetime, props: dict[str, Any], inputs: list[tuple[str, str]]) -> None:
    """An episode Summary with DERIVED_FROM edges to (source_id, hash) inputs."""
    tx.one(CREATE_EPISODE, tenant=tenant, known=known, props=props,
           inputs=[{"source_id": s, "hash": h} for s, h in inputs])
