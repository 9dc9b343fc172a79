"""The rules of procedural memory, pure: the task shape's key, the success rate, retirement, consent.

- **Shape key**: a task shape is looked up by a normalised signature, not a vector. The text is NFKC-normalised
  (full-width letters and digits become plain ones), case-folded, every punctuation character (Unicode category P*)
  becomes a space, and the words are sorted: "Deploy the API, to staging" and "to staging: deploy  the api" share a
  key; "deploy the API to production" does not. Symbols (S*: `+`, `#`, `$`) are kept, so "C++" is not "C". Sorting
  loses order on purpose (a shape names what the task is, not a sentence), so "copy A to B" and "copy B to A" share a
  key: name a direction in words that differ ("copy from A into B") when it matters.
- **Evidence**: a recipe is earned by explaining a success, so `because` names a source showing an outcome: a tool
  result or an observation, or a message that is a tool's or a task's own output (`outcome_shown`).
- **Rate**: a recipe's success rate is Laplace-smoothed, (successes + 1) / (uses + 2): the success that earned it
  counts as one prior success and one prior failure, so a new recipe starts at 0.5 and one lucky use does not rank
  above a long record (1 of 1 is 0.67; 9 of 10 is 0.83). `uses` counts success and failure outcomes only.
- **Retirement** (reward decay, not a TTL): after an outcome, a recipe with at least MIN_USES uses whose rate is
  below RETIRE_BELOW retires: kept as history, never served again, never deleted (3 successes in 10 uses: 0.33).
- **Consent**: a user-facing recipe waits for a person (pending_consent); accept makes it live, decline makes it
  declined (never served); a person may still decline a live user-facing recipe later. Nothing else moves. Accepting
  takes the person's message saying yes, after an agent message that showed every step (`surface_line` is one
  wording), by the rules of consent to a fact (services/gate/consent.py `answered`).
"""

from __future__ import annotations

import math
import unicodedata

from credo.schema.errors import InvalidInput, TransitionRefused
from credo.schema.recipes import RecipeOutcome, RecipeState

RETIRE_BELOW = 0.5  # a rate below this ...
MIN_USES = 10  # ... over at least this many uses retires a recipe

OUTCOME_KINDS = ("tool_result", "observation")
"""The kinds of source that can show a task's outcome; a document, or a conversation message alone, cannot."""
OUTCOME_ORIGINS = ("tool_result", "task_result")
"""A message that is a tool's or a task's own output (its origin, schema/sources.py) is a tool result handed over
in the conversation (MCP's add_messages): it shows an outcome; what a person or an agent says of one does not."""


def outcome_shown(kind: str, origin: str | None) -> bool:
    """Whether a source of this kind and origin can show a task's outcome (pure rule)."""
    return kind in OUTCOME_KINDS or (kind == "message" and origin in OUTCOME_ORIGINS)


SERVED: frozenset[str] = frozenset({"live"})
"""The states `recipes` answers with."""
COUNTS: frozenset[str] = frozenset({"live", "pending_consent"})
"""The states an outcome may be reported in (a retired or declined recipe's record is history)."""


def shape_key(task_shape: str) -> str:
    """The normalised signature of a task shape (see the module's docstring); InvalidInput when it has no word."""
    text = unicodedata.normalize("NFKC", task_shape).casefold()
    spaced = "".join(" " if unicodedata.category(ch).startswith("P") else ch for ch in text)
    words = sorted(spaced.split())
    if not words:
        raise InvalidInput("task_shape", "must name the task in words (it holds only punctuation or spaces)")
    return " ".join(words)


def success_rate(uses: int, successes: int) -> float:
    """(successes + 1) / (uses + 2): Laplace-smoothed, 0.5 before any use."""
    return (successes + 1) / (uses + 2)


def counted(uses: int, successes: int, outcome: RecipeOutcome) -> tuple[int, int]:
    """The counts after one outcome: success and failure count, unknown changes nothing."""
    if outcome == "unknown":
        return uses, successes
    return uses + 1, successes + (outcome == "success")


def retires(uses: int, successes: int, *, below: float = RETIRE_BELOW, min_uses: int = MIN_USES) -> bool:
    """Whether a recipe with these counts retires: at least `min_uses` uses and a rate below `below`."""
    return uses >= min_uses and success_rate(uses, successes) < below


def after_outcome(recipe_id: str, state: RecipeState, uses: int, successes: int,
                  outcome: RecipeOutcome) -> tuple[RecipeState, int, int]:
    """(state, uses, successes) after an outcome; TransitionRefused for a retired or declined recipe."""
    if state not in COUNTS:
        raise TransitionRefused(recipe_id, state, "an outcome (its record is history)")
    uses, successes = counted(uses, successes, outcome)
    return ("retired" if retires(uses, successes) else state), uses, successes


def page_key(key: list[str] | None) -> tuple[float, int, str] | None:
    """A recipes page's key (rate, uses, recipe id as text, `graph/procedural` `recipe_key`) read back; anything
    else is a cursor of another listing or edited by hand: InvalidInput naming `cursor`."""
    if key is None:
        return None
    try:
        rate, uses = float(key[0]), int(key[1])
    except (ValueError, OverflowError):
        rate, uses = math.nan, -1
    if not (0.0 <= rate <= 1.0 and 0 <= uses <= 2**62):
        raise InvalidInput("cursor", "is not a cursor of this listing")
    return rate, uses, key[2]


def surface_line(steps: list[str]) -> str:
    """The line an agent shows a person for a user-facing recipe (any wording works that shows every step)."""
    return "Next time I'll do it this way: " + "; ".join(steps) + ". OK?"


def after_consent(recipe_id: str, state: RecipeState, user_facing: bool, accept: bool) -> RecipeState:
    """The state a person's answer moves a user-facing recipe to; TransitionRefused when it has no such move."""
    target: RecipeState = "live" if accept else "declined"
    if user_facing and (state == "pending_consent" or (state == "live" and not accept)):
        return target
    current = state if user_facing else f"{state} (not user-facing)"
    raise TransitionRefused(recipe_id, current, target)

