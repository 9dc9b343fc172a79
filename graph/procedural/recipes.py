"""Recipes in the graph: one :Recipe node per version (known_from, known_to), so a read at a past known time is a
window over versions, as for facts; an outcome or a consent closes the current version and creates the next."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx, cipher_of
from credo.graph.core.records import native
from credo.schema.recipes import Recipe

CREATE_RECIPE_VERSION = load("create_recipe_version")
READ_RECIPE = load("read_recipe")
READ_RECIPES = load("read_recipes")


def recipe_from_row(row: dict[str, Any]) -> Recipe:
    """A Recipe model from a map projection of a :Recipe node."""
    return Recipe(**{k: native(v) for k, v in row.items() if v is not None and k in Recipe.model_fields})


def write_version(tx: Tx, tenant: str, known: datetime, row: dict[str, Any], *, previous: str | None) -> None:
    """Create a recipe version from its properties (None values left out), closing `previous` (a version id); in
    crypto-erasure mode its task shape and steps are sealed here (the encrypt seam; rows come back opened)."""
    row = {k: v for k, v in row.items() if v is not None}
    cipher = cipher_of(tx)
    tx.one(CREATE_RECIPE_VERSION, tenant=tenant, known=known, previous=previous,
           row=cipher.seal_recipe(tenant, row) if cipher is not None else row)


def current(tx: Tx, tenant: str, recipe_id: str) -> Recipe | None:
    """The current version of a recipe the caller may see, or None."""
    row = tx.one(READ_RECIPE, tenant=tenant, recipe_id=recipe_id)
    return recipe_from_row(row["recipe"]) if row else None


ALL = 2**62  # `$limit` of a whole read (one parameter type whatever the read)


def of_shape(tx: Tx, tenant: str, shape_key: str, states: list[str], known: datetime | None, *,
             after: tuple[float, int, str] | None = None, limit: int = ALL) -> list[Recipe]:
    """The recipes of a shape in `states` at `known` (None: now) the caller may see, best first: at most `limit`
    after the key `after` (rate, uses, recipe id; None: from the first)."""
    rate, uses, recipe_id = after if after is not None else (None, None, None)
    rows = tx.rows(READ_RECIPES, tenant=tenant, shape_key=shape_key, states=states, known=known, after_rate=rate,
                   after_uses=uses, after_id=recipe_id, limit=limit)
    return [recipe_from_row(r["recipe"]) for r in rows]


def recipe_key(recipe: Recipe) -> list[str]:
    """The key a page of recipes ends on: rate (its exact text), uses, recipe id (`services/procedural` reads it)."""
    return [repr(recipe.rate), str(recipe.uses), recipe.recipe_id]
