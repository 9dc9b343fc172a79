"""Command models of procedural memory: recipes keyed by (tenant, task shape) (DESIGN §9, issue 27 item 1)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

from credo.schema.command_base import Command, Id, Name, Time
from credo.schema.names import text_controls
from credo.schema.recipes import RecipeOutcome

STEP_MAX = 2_000  # characters of one step: a recipe's steps are short texts
STEPS_MAX = 100

Step = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=STEP_MAX),
                 AfterValidator(text_controls)]
"""One step of a recipe: short, non-blank text."""
TaskShape = Annotated[Name, Field(min_length=1, description="the task's shape in words, e.g. 'deploy a service to "
                                                            "staging'; case, spacing, punctuation and word order "
                                                            "do not matter")]


class RecordRecipe(Command):
    """Record how a task of this shape was done, earned by the success `because` shows."""

    task_shape: TaskShape
    steps: Annotated[list[Step], Field(min_length=1, max_length=STEPS_MAX)]
    because: Id = Field(description="the id of a recorded source (a tool result or an observation, add_source) "
                                    "showing the success this recipe explains")
    user_facing: bool = Field(default=False, description="a person sees it done their way: served only once they "
                                                         "consent (consent_recipe)")


class RecipeOutcomeReport(Command):
    """Say how using a recipe turned out: success or failure update its rate; unknown is only logged."""

    recipe_id: Id
    outcome: RecipeOutcome


class RecipesQuery(Command):
    """The live recipes of a task shape, best first (by rate, then uses)."""

    task_shape: TaskShape
    known_at: Time | None = Field(default=None, description="as the store knew them then (default now)")


class ConsentRecipe(Command):
    """A person's answer to a user-facing recipe ("next time I'll do it this way - OK?")."""

    recipe_id: Id
    accept: bool
    message_id: Id | None = Field(default=None, description="accept only: the id (s_...) of the person's message "
                                                            "saying yes, after an agent message that showed them "
                                                            "the recipe's steps (both ingested after the recipe was "
                                                            "recorded)")
