"""Forgetting recipes in the graph: read their text before it goes, scrub every version, and find versions left
holding content (a recipe forgotten by id, with the source it was earned by, or with its tenant)."""

from __future__ import annotations

from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.schema.forget import Residue

READ_RECIPE_TEXTS = load("read_recipe_texts")
SCRUB_RECIPES = load("scrub_recipes")
READ_RECIPE_RESIDUE = load("read_recipe_residue")
READ_RECIPE_BECAUSE = load("read_recipe_because")


def texts(tx: Tx, tenant: str, *, recipe_ids: list[str] = (), source_ids: list[str] = ()) -> dict[str, list[str]]:
    """recipe id -> the shapes, shape keys and steps its versions hold, for the recipes named and those earned by
    the sources named (`because`)."""
    if not recipe_ids and not source_ids:
        return {}
    rows = tx.rows(READ_RECIPE_TEXTS, tenant=tenant, recipe_ids=list(recipe_ids), source_ids=list(source_ids))
    return {r["recipe_id"]: list(dict.fromkeys(t for version in r["texts"] for t in version if t)) for r in rows}


def scrub(tx: Tx, tenant: str, recipe_ids: list[str], known: datetime, by: str, reason: str,
          behalf: str | None = None) -> None:
    """Remove every version's shape, shape key and steps, leaving a tombstone."""
    if recipe_ids:
        tx.one(SCRUB_RECIPES, tenant=tenant, recipe_ids=list(recipe_ids), known=known, by=by, behalf=behalf,
               reason=reason)


def residue(tx: Tx, tenant: str, *, recipe_ids: list[str] = (), source_ids: list[str] = ()) -> list[Residue]:
    """Recipe versions (named, or earned by the sources named) still holding their shape or steps."""
    if not recipe_ids and not source_ids:
        return []
    rows = tx.rows(READ_RECIPE_RESIDUE, tenant=tenant, recipe_ids=list(recipe_ids), source_ids=list(source_ids))
    return [Residue(place=r["place"], ref=str(r["ref"]), detail=r["detail"]) for r in rows]


def earned_by(tx: Tx, tenant: str, recipe_ids: list[str]) -> dict[str, str]:
    """recipe id -> the id of the source it was earned by (`because`; kept on a forgotten recipe's tombstone)."""
    if not recipe_ids:
        return {}
    return {r["recipe_id"]: r["because"] for r in tx.rows(READ_RECIPE_BECAUSE, tenant=tenant,
                                                          recipe_ids=list(recipe_ids))}
