"""`credo search QUERY`: hybrid search over facts, entities and summaries, filtered before ranking."""

from __future__ import annotations

import argparse
import json

from credo.api.cli.facts import connected
from credo.api.render import to_json
from credo.schema.errors import InvalidInput


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the search command to the main parser's sub-parsers."""
    search = subparsers.add_parser("search", help="search facts, entities and summaries (text + meaning + graph)")
    search.add_argument("query", help="the question, in natural language")
    search.add_argument("--at", dest="valid_at", help="valid time (default now)")
    search.add_argument("--known-at", dest="known_at", help="known time (default: believed now)")
    search.add_argument("--scope", help='JSON object, e.g. {"env": "prod"}')
    search.add_argument("--kind", dest="kinds", action="append", help="fact, entity, summary or a memory kind; repeatable")
    search.add_argument("--state", dest="states", action="append", help="states to serve (default the served ones)")
    search.add_argument("--limit", type=int, default=10)
    search.add_argument("--task", help="record a read receipt for this task label")
    search.add_argument("--json", action="store_true", help="print JSON")
    search.set_defaults(handler=cmd_search)


def cmd_search(args: argparse.Namespace) -> int:
    """Print the hits best first: kind, id, fused score, the paths that found it, the text."""
    try:
        scope = None if args.scope is None else json.loads(args.scope)
    except ValueError:
        raise InvalidInput("--scope", "must be a JSON object of text values") from None
    found = connected(args).search(args.query, valid_at=args.valid_at, known_at=args.known_at, scope=scope,
                                   kinds=args.kinds, states=args.states, limit=args.limit, task=args.task)
    if args.json:
        print(to_json(found))
        return 0
    for hit in found.hits:
        paths = ",".join(f"{p}#{hit.paths[p].rank}" for p in hit.found_by)
        marks = f"  ({', '.join(hit.flags)})" if hit.flags else ""
        print(f"{hit.score:.4f}  {hit.kind:<7} {hit.id}  [{paths}]  {hit.text}{marks}")
    if not found.hits:
        print("no hits")
    return 0
