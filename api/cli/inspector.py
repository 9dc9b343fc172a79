"""`credo versions ENTITY`: every version about an entity, the rows of the inspector's timeline."""

from __future__ import annotations

import argparse

from credo.api.cli.facts import connected
from credo.api.render import facts_block, to_json


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the versions command to the main parser's sub-parsers."""
    versions = subparsers.add_parser("versions", help="every version of every fact about an entity (all states, all known times)")
    versions.add_argument("entity", help="the entity's name")
    versions.add_argument("--json", action="store_true", help="print JSON")
    versions.set_defaults(handler=cmd_versions)


def cmd_versions(args: argparse.Namespace) -> int:
    """Print every version about the entity, oldest belief first."""
    found = connected(args).entity_versions(args.entity)
    print(to_json(found) if args.json else facts_block(found))
    return 0
