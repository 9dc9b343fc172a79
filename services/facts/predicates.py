"""Define predicates (single- or multi-valued, inverse names) and look up how one behaves."""

from __future__ import annotations

from credo.graph.facts import entities as entity_repo
from credo.graph.core import versions as fact_repo
from credo.graph.facts import predicates as predicate_repo
from credo.graph.core.db import Tx
from credo.schema import commands as c
from credo.schema.facts import Fact, PredicateDef
from credo.schema.pages import After, key_parts, keyed_page
from credo.schema.names import normalise_predicate
from credo.services.core.context import Context
from credo.services.facts.rules import WriteDecision, decide_write, default_cardinality, established


def define_predicate(ctx: Context, cmd: c.DefinePredicate) -> PredicateDef:
    """Register how a predicate behaves for this tenant (overrides the defaults)."""
    name, cardinality = normalise_predicate(cmd.name, "name"), cmd.cardinality  # single or multi, by the command
    inverse = None if cmd.inverse is None else normalise_predicate(cmd.inverse, "inverse")
    definition = PredicateDef(name=name, cardinality=cardinality, inverse=inverse)
    return ctx.write(lambda w: predicate_repo.define(w.tx, ctx.tenant, w.known, definition))


def registry(tx: Tx, tenant: str) -> dict[str, PredicateDef]:
    """Every predicate the tenant defined, by (normalised) name."""
    return {normalise_predicate(p.name): p for p in predicate_repo.defined(tx, tenant)}


def lookup(defined: dict[str, PredicateDef], name: str) -> PredicateDef:
    """A predicate's definition, falling back to the defaults."""
    return defined.get(name) or PredicateDef(name=name, cardinality=default_cardinality(name))


def predicates(ctx: Context, cmd: c.PredicatesQuery, *, page: After | None = None) -> list[PredicateDef]:
    """Predicates this tenant has defined, by name; a `page` is cut in the query by name (`.next_after`)."""
    if page is None:
        return ctx.read(lambda tx: predicate_repo.defined(tx, ctx.tenant))
    after = None if page.key is None else key_parts(page, "text")[0]  # a key of another shape never reaches the query
    found = ctx.read(lambda tx: predicate_repo.defined(tx, ctx.tenant, after=after, limit=page.limit + 1))
    return keyed_page(found, page, key=lambda p: p.name)


def decide_in_slot(tx: Tx, tenant: str, fact: Fact, *, scope: dict[str, str] | None = None) -> WriteDecision:
    """The conflict rule (DESIGN §4) for `fact` against the other facts established in its slot now.

    The slot is (subject with every id merged into it, predicate, scope — `fact.scope` unless `scope` is given);
    the fact's own versions never count against it.
    """
    entity = entity_repo.find(tx, tenant, fact.subject)
    ids = entity.ids if entity is not None and fact.subject_id in entity.ids else [fact.subject_id]
    current = fact_repo.current_for(tx, tenant, [(ids, fact.predicate)], episodic=fact.kind == "episodic")[0]
    others = established([f for f in current if f.fact_id != fact.fact_id], fact.scope if scope is None else scope)
    return decide_write(object_key=fact.object.key, valid_from=fact.valid_from, valid_to=fact.valid_to,
                        cardinality=lookup(registry(tx, tenant), fact.predicate).cardinality, current=others)
