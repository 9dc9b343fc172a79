"""Store methods of procedural memory: recipes keyed by (tenant, task shape) (DESIGN §9)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from credo.schema import commands_procedural as c
from credo.schema.commands import build
from credo.schema.pages import After
from credo.schema.recipes import Recipe
from credo.services.core.context import Context
from credo.services.procedural import recipes as recipe_service


class ProceduralMixin:
    """Procedural half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def record_recipe(self, task_shape: str, steps: Sequence[str], *, because: str,
                      user_facing: bool = False) -> Recipe:
        """Record how a task of this shape is done, earned by the success the source `because` (a tool result or an
        observation) shows; a user-facing recipe is served only once a person consents (`consent_recipe`)."""
        cmd = build(c.RecordRecipe, task_shape=task_shape, steps=steps, because=because, user_facing=user_facing)
        return recipe_service.record_recipe(self._ctx, cmd)

    def recipe_outcome(self, recipe_id: str, outcome: str) -> Recipe:
        """How using a recipe turned out: success or failure update its rate (it retires when the rate stays below
        0.5 over 10 uses); unknown changes nothing and is only logged."""
        cmd = build(c.RecipeOutcomeReport, recipe_id=recipe_id, outcome=outcome)
        return recipe_service.recipe_outcome(self._ctx, cmd)

    def recipes(self, task_shape: str, *, known_at: Any = None, page: After | None = None) -> list[Recipe]:
        """The live recipes of a task shape, best first (by rate, then uses), each with its record; `page` reads one
        page of them in its query (REST's and MCP's pages: `.next_after`)."""
        return recipe_service.recipes(self._ctx, build(c.RecipesQuery, task_shape=task_shape, known_at=known_at),
                                      page=page)

    def consent_recipe(self, recipe_id: str, *, accept: bool, message_id: str | None = None) -> Recipe:
        """A person's answer to a user-facing recipe: accepted on the word of their message `message_id` saying yes
        (after an agent message that showed them its steps), it is served; declined, it never is."""
        return recipe_service.consent_recipe(self._ctx, build(c.ConsentRecipe, recipe_id=recipe_id, accept=accept,
                                                              message_id=message_id))


HANDLERS: dict[str, Callable[..., Any]] = {
    "record_recipe": recipe_service.record_recipe, "recipe_outcome": recipe_service.recipe_outcome,
    "recipes": recipe_service.recipes, "consent_recipe": recipe_service.consent_recipe,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
