"""`credo mcp`: the MCP tools over stdio for one agent, acting as the key in `CREDO_API_KEY`.

The key is checked again on every tool call (a revoked key stops working at once, mid-session) and its principal
(tenant, clearance, scopes, acting key) bounds every call exactly as over HTTP. With `CREDO_AUTH=off` (local
development only) the caller is the process user in `--tenant` / `CREDO_TENANT` instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from credo.schema.api_keys import Principal
from credo.schema.errors import InvalidInput, Unauthenticated
from credo.services.access.api_keys import authenticate


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `mcp` command."""
    parser = sub.add_parser("mcp", help="serve the MCP tools over stdio (acting as the key in CREDO_API_KEY)")
    parser.set_defaults(handler=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    """Connect, check the key, and serve MCP on stdin/stdout until the client hangs up."""
    from credo.api.mcp.server import build_server
    from credo.bootstrap import open_database, open_store

    def say(message: str) -> None:  # stdout carries the protocol: everything else goes to stderr
        print(message, file=sys.stderr)

    from credo.services.adapters.embeddings import readiness

    db = open_database(args.settings, progress=say)
    args.store = open_store(args.settings, db)  # closed by main (it owns the driver)
    caller = stdio_principal(args.store, explicit=args.tenant, settings=args.settings, say=say)
    readiness.start()  # as `credo serve` does: the agent's first remember does not pay for loading the model
    try:
        build_server(args.store.for_principal, principal=caller).run("stdio")
    finally:
        readiness.wait()  # a process that exits while a thread loads native code aborts
    return 0


def stdio_principal(store: Any, *, explicit: str | None, settings: Any, say: Any) -> Any:
    """Who each call acts as: the key of `CREDO_API_KEY`, authenticated again on every call; without a key only when
    CREDO_AUTH=off, then the process user in `--tenant`. Checked once here, so a bad key fails at start."""
    key = os.environ.get("CREDO_API_KEY")
    if key:
        first = authenticate(store._db, key)
        if explicit and explicit != first.tenant:
            raise InvalidInput("--tenant", "the tenant comes from CREDO_API_KEY; drop --tenant or use that key's "
                               "tenant")
        return lambda: authenticate(store._db, key)
    if not settings.auth:
        say(f"WARNING: CREDO_AUTH=off - no API key checked; serving tenant {settings.tenant!r} to whoever runs this")
        return Principal.local(settings.tenant)
    raise Unauthenticated("set CREDO_API_KEY to a key (credo keys create), or CREDO_AUTH=off with --tenant for "
                          "local development")
