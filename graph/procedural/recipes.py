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


def of_shape(tx: Tx, tenant: str, shape_key: str, states: list[str], known: datetime | None) -> list[Recipe]:
    """The recipes of a shape in `states` at `known` (None: now) the caller may see, best first."""
    rows = tx.rows(READ_RECIPES, tenant=tenant, shape_key=shape_key, states=states, known=known)
    return [recipe_from_row(r["recipe"]) for r in rows]
