"""The `credo` command line: Neo4j provisioning, migrations, doctor, demo, and fact commands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from credo.schema.errors import CredoError
from credo.settings import Settings


def _build_parser() -> argparse.ArgumentParser:
    from credo.api.cli import truth as cli_cascade
    from credo.api.cli import facts as cli_facts
    from credo.api.cli import forget as cli_forget
    from credo.api.cli import imports as cli_import
    from credo.api.cli import inspector as cli_inspector
    from credo.api.cli import ledger as cli_ledger
    from credo.api.cli import lifecycle as cli_lifecycle
    from credo.api.cli import mcp as cli_mcp
    from credo.api.cli import neo4j as cli_neo4j
    from credo.api.cli import preferences as cli_preferences
    from credo.api.cli import procedural as cli_procedural
    from credo.api.cli import policy as cli_policy
    from credo.api.cli import episodic as cli_episodic
    from credo.api.cli import gate as cli_provenance
    from credo.api.cli import recall as cli_recall
    from credo.api.cli import search as cli_search
    from credo.api.cli import serve as cli_serve
    from credo.api.cli import system as cli_system
    from credo.api.cli import transition as cli_transition
    from credo.api.cli import verify as cli_verify
    from credo.api.cli import consent as cli_consent
    from credo.api.cli import backup as cli_backup

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
    cli_procedural.register(sub)
    cli_transition.register(sub)
    cli_verify.register(sub)
    cli_policy.register(sub)
    cli_preferences.register(sub)
    cli_episodic.register(sub)
    cli_consent.register(sub)
    cli_backup.register(sub)
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
