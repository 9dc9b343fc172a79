"""Define predicates (single- or multi-valued, inverse names) and look up how one behaves."""

from __future__ import annotations

from typing import Literal

from credo.graph import predicates as predicate_repo
from credo.graph.db import Tx
from credo.schema.errors import InvalidInput
from credo.schema.facts import PredicateDef
from credo.services.context import Context
from credo.services.temporal_rules import default_cardinality


def define_predicate(
    ctx: Context, *, name: str, cardinality: Literal["single", "multi"] = "single", inverse: str | None = None
) -> PredicateDef:
    """Register how a predicate behaves for this tenant (overrides the defaults)."""
    if not name or not name.strip():
        raise InvalidInput("name", "must not be empty")
    if cardinality not in ("single", "multi"):
        raise InvalidInput("cardinality", "must be 'single' or 'multi'", value=cardinality)
    definition = PredicateDef(name=name.strip(), cardinality=cardinality, inverse=inverse)
    return ctx.write(lambda tx, known: predicate_repo.define(tx, ctx.tenant, known, definition))


def registry(tx: Tx, tenant: str) -> dict[str, PredicateDef]:
    """Every predicate the tenant defined, by name."""
    return {p.name: p for p in predicate_repo.defined(tx, tenant)}


def lookup(defined: dict[str, PredicateDef], name: str) -> PredicateDef:
    """A predicate's definition, falling back to the defaults."""
    return defined.get(name) or PredicateDef(name=name, cardinality=default_cardinality(name))


def predicates(ctx: Context) -> list[PredicateDef]:
    """Predicates this tenant has defined."""
    return ctx.read(lambda tx: predicate_repo.defined(tx, ctx.tenant))
