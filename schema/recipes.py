"""Procedural memory (DESIGN §9): a recipe, how to do a task of one shape here, with its usage record.

Models only; the rules (the shape key, the rate, retirement, consent) are services/procedural/rules.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

RecipeOutcome = Literal["success", "failure", "unknown"]
"""How using a recipe turned out: success and failure count; unknown is only logged."""
RECIPE_OUTCOMES: tuple[RecipeOutcome, ...] = get_args(RecipeOutcome)

RecipeState = Literal["live", "pending_consent", "declined", "retired"]
"""live: served; pending_consent: user-facing, waiting for a person's yes; declined: a person said no (never
served); retired: its success rate stayed below the threshold over the minimum uses (kept as history, never served)."""
RECIPE_STATES: tuple[RecipeState, ...] = get_args(RecipeState)


class Recipe(BaseModel):
    """One version of a recipe: its steps, the success it was earned by, and its usage record at `known_from`."""

    model_config = ConfigDict(frozen=True)

    recipe_id: str
    version_id: str
    tenant: str
    task_shape: str  # as the recorder phrased it
    shape_key: str  # the normalised signature recipes are looked up by (services/procedural/rules.py `shape_key`)
    steps: list[str]
    because: str  # the source (a tool result or an observation) showing the success that earned it
    user_facing: bool = False
    state: RecipeState
    uses: int = 0  # outcomes counted (success or failure)
    successes: int = 0
    rate: float  # (successes + 1) / (uses + 2): services/procedural/rules.py `success_rate`
    known_from: datetime
    known_to: datetime | None = None  # set once an outcome or a consent made a newer version
    sensitivity: str | None = None
    # the write plan that admitted it (schema/policy.py WritePlan as compact JSON): the policy's id among it
    write_plan: str | None = None
    consented_in: str | None = None  # the person's message (s_...) that accepted a user-facing recipe
