"""`credo recipe add|outcome|consent`, `credo recipes`: procedural memory (recipes keyed by task shape)."""

from __future__ import annotations

import argparse

from credo.api.cli.facts import connected
from credo.api.render import printed
from credo.schema.recipes import RECIPE_OUTCOMES, Recipe


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the recipe commands to the main parser's sub-parsers."""
    recipe = subparsers.add_parser("recipe", help="record recipes, report their outcomes, consent to them")
    sub = recipe.add_subparsers(dest="recipe_command", required=True)
    add = sub.add_parser("add", help="record how a task of a shape was done, earned by a success")
    add.add_argument("task_shape", help="the kind of task in words, e.g. 'deploy a service to staging'")
    add.add_argument("--step", action="append", dest="steps", required=True, metavar="TEXT",
                     help="one step, in order (repeat for each)")
    add.add_argument("--because", required=True, help="the source id (s_...) of the tool result or observation "
                                                      "showing the success")
    add.add_argument("--user-facing", action="store_true", help="served only once a person consents")
    add.add_argument("--json", action="store_true", help="print JSON")
    add.set_defaults(handler=cmd_add)

    outcome = sub.add_parser("outcome", help="how using a recipe turned out: success, failure or unknown")
    outcome.add_argument("recipe_id", help="the recipe id (r_...)")
    outcome.add_argument("outcome", choices=RECIPE_OUTCOMES)
    outcome.add_argument("--json", action="store_true", help="print JSON")
    outcome.set_defaults(handler=cmd_outcome)

    consent = sub.add_parser("consent", help="a person's answer to a user-facing recipe")
    consent.add_argument("recipe_id", help="the recipe id (r_...)")
    answer = consent.add_mutually_exclusive_group(required=True)
    answer.add_argument("--accept", dest="accept", action="store_true", help="serve it from now on")
    answer.add_argument("--decline", dest="accept", action="store_false", help="never serve it")
    consent.add_argument("--message", dest="message_id", help="accept: the person's message saying yes (s_...)")
    consent.add_argument("--json", action="store_true", help="print JSON")
    consent.set_defaults(handler=cmd_consent)

    listing = subparsers.add_parser("recipes", help="the live recipes of a task shape, best first")
    listing.add_argument("task_shape")
    listing.add_argument("--known-at", help="as the store knew them then")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(handler=cmd_recipes)


def cmd_add(args: argparse.Namespace) -> int:
    """Record a recipe and print it."""
    recipe = connected(args).record_recipe(args.task_shape, args.steps, because=args.because,
                                           user_facing=args.user_facing)
    return printed(recipe, args.json, _recipe_lines)


def cmd_outcome(args: argparse.Namespace) -> int:
    """Report an outcome and print the recipe as it now stands."""
    return printed(connected(args).recipe_outcome(args.recipe_id, args.outcome), args.json, _recipe_lines)


def cmd_consent(args: argparse.Namespace) -> int:
    """Record a person's answer and print the recipe."""
    return printed(connected(args).consent_recipe(args.recipe_id, accept=args.accept,
                                                          message_id=args.message_id), args.json, _recipe_lines)


def cmd_recipes(args: argparse.Namespace) -> int:
    """Print the live recipes of a shape, best first."""
    return printed(connected(args).recipes(args.task_shape, known_at=args.known_at), args.json, _recipe_lines,
                   empty="no live recipe of this shape")


def _recipe_lines(r: Recipe) -> list[str]:
    return [f"{r.recipe_id} [{r.state}] {r.task_shape!r}: rate {r.rate:.2f} ({r.successes} of {r.uses} uses), "
            f"earned by {r.because}"] + [f"  {n}. {step}" for n, step in enumerate(r.steps, 1)]
