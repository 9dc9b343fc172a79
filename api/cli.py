"""The `credo` command line: Neo4j provisioning, migrations, doctor, demo, and fact commands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from credo.schema.errors import CredoError
from credo.settings import Settings


def _build_parser() -> argparse.ArgumentParser:
    from credo.api import (cli_cascade, cli_facts, cli_forget, cli_import, cli_inspector, cli_ledger, cli_lifecycle,
                           cli_mcp, cli_neo4j, cli_provenance, cli_recall, cli_search, cli_serve, cli_system)

    parser = argparse.ArgumentParser(prog="credo", description="Credo: a temporal knowledge store on Neo4j.")
    parser.add_argument("--verbose", "-v", action="store_true", help="show error details")
    parser.add_argument("--tenant", default=None, help="tenant to act in (default: CREDO_TENANT or 'default')")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    cli_neo4j.register(sub)
    cli_system.register(sub)
    cli_facts.register(sub)
    cli_provenance.register(sub)
    cli_cascade.register(sub)
    cli_lifecycle.register(sub)
    cli_recall.register(sub)
    cli_search.register(sub)
    cli_forget.register(sub)
    cli_ledger.register(sub)
    cli_serve.register(sub)
    cli_mcp.register(sub)
    cli_inspector.register(sub)
    cli_import.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; errors print as one line (details with --verbose) and exit 1."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    args.settings = Settings(**({"tenant": args.tenant} if args.tenant else {}))
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args) or 0
    except CredoError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        if args.verbose and exc.detail:
            print(exc.detail, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        store = getattr(args, "store", None)
        if store is not None:
            store.close()
