"""The predicate registry: single- or multi-valued predicates and their inverse names."""

from __future__ import annotations

from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.versions import ALL
from credo.schema.facts import PredicateDef

UPSERT_PREDICATE = load("upsert_predicate")
READ_PREDICATES = load("read_predicates")


def define(tx: Tx, tenant: str, known: datetime, definition: PredicateDef) -> PredicateDef:
    """Store a predicate definition for the tenant."""
    row = tx.one(
        UPSERT_PREDICATE, tenant=tenant, name=definition.name, cardinality=definition.cardinality,
        inverse=definition.inverse, known=known,
    )
    return PredicateDef(**row)


def defined(tx: Tx, tenant: str, *, after: str | None = None, limit: int = ALL) -> list[PredicateDef]:
    """The predicates the tenant has defined, by name: every one, or at most `limit` named after `after`."""
    return [PredicateDef(**r) for r in tx.rows(READ_PREDICATES, tenant=tenant, after=after, limit=limit)]
