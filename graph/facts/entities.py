"""Entities: resolve names (normalised, aliases, merges), merge and unmerge reversibly."""

from __future__ import annotations

import re
from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.graph.core.records import FAR_FUTURE
from credo.schema.entities import Entity
from credo.schema.names import visible

RESOLVE_ENTITIES = load("resolve_entities")
READ_ENTITY = load("read_entity")
READ_ENTITY_BY_ID = load("read_entity_by_id")
READ_ENTITY_BY_NORM = load("read_entity_by_norm")
MERGE_ENTITY = load("merge_entity")
UNMERGE_ENTITY = load("unmerge_entity")

_SPACE = re.compile(r"\s+")


def normalise(name: str) -> str:
    """The lookup key of a name: Unicode-normalised, invisible characters dropped, case-folded, whitespace collapsed."""
    return _SPACE.sub(" ", visible(name).casefold()).strip()


def resolve(tx: Tx, tenant: str, known: datetime, names: list[str], kind: str | None = None) -> dict[str, Entity]:
    """Map each name to its canonical entity (with merged ids), creating entities that do not exist yet (a bulk
    write resolves its names in services/record_fact instead: one read, new entities made with its versions)."""
    unique = {normalise(n): visible(n).strip() for n in names}
    # one query: resolve_entities reads each name first and MERGEs only the ones it did not find
    rows = [{"norm": norm, "name": name, "new_id": new_id("e"), "kind": kind} for norm, name in unique.items()]
    made = tx.rows(RESOLVE_ENTITIES, tenant=tenant, known=known, rows=rows) if rows else []
    by_norm = {r["norm"]: Entity(entity_id=r["entity_id"], name=r["name"], ids=r["ids"]) for r in made}
    return {n: by_norm[normalise(n)] for n in names}


def find(tx: Tx, tenant: str, name: str, known_at: datetime | None = None) -> Entity | None:
    """The canonical entity a name resolves to (with every id merged into it) under the merges believed at
    known_at (default now), or None."""
    row = tx.one(READ_ENTITY, tenant=tenant, norm=normalise(name), known_at=(known_at or FAR_FUTURE).isoformat())
    if not row or row["entity_id"] is None:
        return None
    return Entity(entity_id=row["entity_id"], name=row["name"], kind=row["kind"], aliases=row["aliases"] or [], ids=row["ids"])


def by_id(tx: Tx, tenant: str, entity_id: str) -> Entity | None:
    """One entity by id within the tenant, or None."""
    row = tx.one(READ_ENTITY_BY_ID, entity_id=entity_id)
    if not row or row["tenant"] != tenant:
        return None
    return Entity(entity_id=row["entity_id"], name=row["name"], kind=row["kind"], aliases=row["aliases"] or [], ids=[row["entity_id"]])


def own(tx: Tx, tenant: str, name: str) -> Entity | None:
    """The entity node whose own name this is (merges not followed), or None."""
    row = tx.one(READ_ENTITY_BY_NORM, tenant=tenant, norm=normalise(name))
    if not row:
        return None
    return Entity(entity_id=row["entity_id"], name=row["name"], kind=row["kind"], aliases=row["aliases"] or [], ids=[row["entity_id"]])


def merge(tx: Tx, known: datetime, keep_id: str, other_id: str) -> list[str]:
    """Merge `other` into `keep`; returns the keeper's aliases."""
    row = tx.one(MERGE_ENTITY, keep_id=keep_id, other_id=other_id, known=known)
    return row["aliases"] if row else []


def unmerge(tx: Tx, known: datetime, other_id: str) -> str | None:
    """Undo the merge of `other`; returns the former keeper's id, or None if it was not merged."""
    row = tx.one(UNMERGE_ENTITY, other_id=other_id, known=known)
    return row["keep_id"] if row else None
