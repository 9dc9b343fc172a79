"""`credo why FACT_ID [--known-at T] [--json]`: print why a fact is held."""

from __future__ import annotations

import argparse
import json


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `why` command; the main CLI provides a connected store as `args.store`."""
    parser = subparsers.add_parser("why", help="show the evidence, quotes, premises and supersessions of a fact")
    parser.add_argument("fact_id", help="a fact id (f_...) or version id (v_...)")
    parser.add_argument("--known-at", dest="known_at", default=None, help="as believed at this known time (ISO 8601)")
    parser.add_argument("--json", dest="as_json", action="store_true", help="print the tree as JSON")
    parser.set_defaults(handler=run_why, func=run_why)


def run_why(args: argparse.Namespace) -> int:
    """Print the why tree of `args.fact_id` as text or JSON."""
    from credo.api.cli.facts import connected

    tree = connected(args).why(args.fact_id, known_at=args.known_at)
    print(json.dumps(tree.json_dict(), indent=2, ensure_ascii=False) if args.as_json else tree.text())
    return 0
