"""`credo verify FACT_ID`, `credo reviews`, `credo review ITEM_ID approve|reject|edit`: the semantic verifier and the
human review queue (DESIGN §11)."""

from __future__ import annotations

import argparse

from credo.api.cli.facts import connected
from credo.api.render import printed
from credo.schema.verify import REVIEW_DECISIONS, ReviewItem, VerifyOutcome


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the verification commands to the main parser's sub-parsers."""
    verify = subparsers.add_parser("verify", help="run the configured verifier (CREDO_VERIFIER) on a fact version")
    verify.add_argument("fact_id", help="a fact id (its current version) or a version id (v_...)")
    verify.add_argument("--json", action="store_true", help="print JSON")
    verify.set_defaults(handler=cmd_verify)

    reviews = subparsers.add_parser("reviews", help="the pending review items, each candidate beside its excerpt")
    reviews.add_argument("--json", action="store_true", help="print JSON")
    reviews.set_defaults(handler=cmd_reviews)

    review = subparsers.add_parser("review", help="decide a review item: approve, reject, or edit then approve")
    review.add_argument("item_id", help="the review item id (rq_...)")
    review.add_argument("decision", choices=REVIEW_DECISIONS)
    review.add_argument("--statement", help="the corrected statement (edit only)")
    review.add_argument("--reason", help="why (recorded with the verdict)")
    review.add_argument("--json", action="store_true", help="print JSON")
    review.set_defaults(handler=cmd_review)


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify a fact version and print what was done."""
    return printed(connected(args).verify(args.fact_id), args.json, _outcome_lines)


def cmd_reviews(args: argparse.Namespace) -> int:
    """Print the pending review items."""
    return printed(connected(args).review_queue(), args.json, _review_lines, empty="no pending review item")


def cmd_review(args: argparse.Namespace) -> int:
    """Record a decision and print the item."""
    item = connected(args).review(args.item_id, args.decision, statement=args.statement, reason=args.reason)
    return printed(item, args.json, _review_lines)


def _outcome_lines(outcome: VerifyOutcome) -> list[str]:
    head = f"{outcome.fact_id} {outcome.version_id}"
    if outcome.verified_by is not None:
        return [f"{head}: {outcome.verified_by.text()}: {outcome.verified_by.reason}"]
    if outcome.review_item is not None:
        return [f"{head}: queued for review as {outcome.review_item.item_id}"]
    return [f"{head}: not verified ({outcome.note})"]


def _review_lines(i: ReviewItem) -> list[str]:
    lines = [f"{i.item_id} [{i.state}] {i.fact_id} {i.version_id}", f"  statement: {i.statement}",
             f"  quote:     {i.excerpt.quote if i.excerpt.quote is not None else '(no source)'}"]
    if i.excerpt.text:
        lines.append(f"  message:   {i.excerpt.text}")
    if i.verified_by is not None:
        lines.append(f"  verdict:   {i.verified_by.text()}")
    return lines
