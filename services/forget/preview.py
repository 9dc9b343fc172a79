"""What forgetting one id will reach, read from that id alone (nothing is written): the inspector's confirmation.

The preview follows the rules `forget` applies (services/forget/forget.py): a fact goes with every version, the summaries
derived from it are rebuilt without it, its read receipts lose it; a source goes with the facts for which it is the
only evidence and the recipes it earned; an entity goes with every fact naming it as subject or object (through
merges) and its aliases; a summary's text goes from every version; a recipe's shape and steps go from every version.
Text above the caller's clearance is never shown (a source's recipes are counted, not named).
"""

from __future__ import annotations

from credo.graph.facts import entities as entity_repo
from credo.graph.core import versions as fact_repo
from credo.graph.forget import forget as forget_repo
from credo.graph.forget import recipes as recipe_repo
from credo.graph.recall import receipts as receipt_repo
from credo.graph.gate import sources as source_repo
from credo.graph.truth import summaries as summary_repo
from credo.graph.core.db import Tx
from credo.schema.errors import NotFound
from credo.schema.forget import ForgetPreview
from credo.schema.search import can_see
from credo.services.core.context import Context
from credo.services.forget.verify import kind_of
from credo.services.forget.rules import only_evidence

SHOWN = 50  # facts listed by name; more are counted
INDEXES = "its quotes and statements in every index (full text, vectors)"
LEDGER = "the content in ledger details (the events stay, naming the id)"


def forget_preview(ctx: Context, *, target_id: str) -> ForgetPreview:
    """The confirmation of forgetting `target_id`: what it names and what goes with it; NotFound for an id this
    tenant does not hold (or whose text this caller's clearance cannot read)."""
    found = kind_of(ctx, target_id)
    kind, ident = found["kind"], (found["fact_id"] if found["kind"] == "fact" else target_id)
    if found["forgotten"]:
        return ForgetPreview(target_id=ident, kind=kind, title=ident, reached=[], already_forgotten=True)
    readers = {"fact": _fact, "source": _source, "entity": _entity, "summary": _summary, "recipe": _recipe}
    preview = ctx.read(lambda tx: readers[kind](tx, ctx, ident))
    if preview is None:
        raise NotFound("forget target", target_id)
    return preview


def _statements(tx: Tx, ctx: Context, fact_ids: list[str]) -> list[str]:
    """The current statement of each fact the caller may read."""
    shown = []
    for fact_id in fact_ids[:SHOWN]:
        versions = fact_repo.versions_of(tx, ctx.tenant, fact_id)
        if versions and can_see(ctx.clearance, versions[-1].sensitivity) and versions[-1].statement:
            shown.append(versions[-1].statement)
    return shown


def _fact(tx: Tx, ctx: Context, fact_id: str) -> ForgetPreview | None:
    versions = fact_repo.versions_of(tx, ctx.tenant, fact_id)
    if not versions or not can_see(ctx.clearance, versions[-1].sensitivity):
        return None
    title = versions[-1].statement or fact_id
    summaries = summary_repo.deriving(tx, ctx.tenant, fact_ids=[fact_id], summary_ids=[], source_ids=[])
    receipts = receipt_repo.tasks_served(tx, ctx.tenant, fact_id)
    reached = [f"{len(versions)} version(s) of “{title}”",
               *[f"summary “{s.topic}” (rebuilt without it)" for s in summaries],
               f"{len(receipts)} read receipt(s)", INDEXES, LEDGER]
    return ForgetPreview(target_id=fact_id, kind="fact", title=title, reached=reached)


def _source(tx: Tx, ctx: Context, source_id: str) -> ForgetPreview | None:
    source = source_repo.by_ids(tx, ctx.tenant, [source_id]).get(source_id)
    if source is None:
        return None
    if source.kind == "message":
        by = f" by {source.author}" if source.author else ""
        title = f"message {source.index} of session {source.session_id}{by}"
    else:
        title = source.title or f"{source.kind} {source_id}"
    dependents = forget_repo.source_dependents(tx, ctx.tenant, source_id)
    alone = only_evidence(dependents)
    backed = len(dependents) - len(alone)
    recipes = recipe_repo.texts(tx, ctx.tenant, source_ids=[source_id])
    reached = ["the source's text, title, uri and author", "every quote taken from it, in every index",
               *[f"fact “{s}” (this source is its only evidence)" for s in _statements(tx, ctx, alone)],
               *([f"and {len(alone) - SHOWN} more fact(s) resting on it alone"] if len(alone) > SHOWN else []),
               *([f"{backed} fact(s) citing it keep their other evidence"] if backed else []),
               *([f"{len(recipes)} recipe(s) it earned, every version's shape and steps"] if recipes else []), LEDGER]
    return ForgetPreview(target_id=source_id, kind="source", title=title, reached=reached)


def _recipe(tx: Tx, ctx: Context, recipe_id: str) -> ForgetPreview | None:
    texts = recipe_repo.texts(tx, ctx.tenant, recipe_ids=[recipe_id]).get(recipe_id)
    if not texts:
        return None
    return ForgetPreview(target_id=recipe_id, kind="recipe", title=texts[0],
                         reached=[f"the shape and steps of recipe “{texts[0]}” in every version", LEDGER])


def _entity(tx: Tx, ctx: Context, entity_id: str) -> ForgetPreview | None:
    entity = entity_repo.by_id(tx, ctx.tenant, entity_id)
    if entity is None:
        return None
    family = forget_repo.entity_family(tx, ctx.tenant, entity_id)
    fact_ids = forget_repo.facts_about(tx, ctx.tenant, family, SHOWN + 1)
    aliases = f" and its aliases ({', '.join(entity.aliases)})" if entity.aliases else ""
    reached = [f"the entity “{entity.name}”{aliases}",
               *[f"fact “{s}”" for s in _statements(tx, ctx, fact_ids)],
               *(["and more facts naming it"] if len(fact_ids) > SHOWN else []), INDEXES, LEDGER]
    return ForgetPreview(target_id=entity_id, kind="entity", title=entity.name, reached=reached)


def _summary(tx: Tx, ctx: Context, summary_id: str) -> ForgetPreview | None:
    summary = summary_repo.by_ids(tx, ctx.tenant, [summary_id]).get(summary_id)
    if summary is None:
        return None
    return ForgetPreview(target_id=summary_id, kind="summary", title=summary.topic,
                         reached=[f"the text of summary “{summary.topic}” in every version", LEDGER])
