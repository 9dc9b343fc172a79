"""`credo mcp`: the MCP tools over stdio for one agent; the tenant comes from `CREDO_API_KEY`.

With `CREDO_AUTH=off` (local development only) the tenant is `--tenant` / `CREDO_TENANT` instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from credo.schema.errors import InvalidInput, Unauthenticated
from credo.services.api_keys import authenticate


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `mcp` command."""
    parser = sub.add_parser("mcp", help="serve the MCP tools over stdio (tenant from CREDO_API_KEY)")
    parser.set_defaults(handler=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    """Connect, resolve the tenant from the key, and serve MCP on stdin/stdout until the client hangs up."""
    import credo
    from credo.api.mcp_server import build_server

    def say(message: str) -> None:  # stdout carries the protocol: everything else goes to stderr
        print(message, file=sys.stderr)

    args.store = credo.connect(settings=args.settings, progress=say)  # closed by main
    tenant = stdio_tenant(args.store, explicit=args.tenant, settings=args.settings, say=say)
    key = os.environ.get("CREDO_API_KEY")
    clearance = authenticate(args.store._db, key).clearance if key else "all"  # search filters by the key's clearance
    build_server(lambda t: args.store.for_tenant(t, clearance=clearance), tenant=tenant).run("stdio")
    return 0


def stdio_tenant(store: Any, *, explicit: str | None, settings: Any, say: Any) -> str:
    """The key's tenant (`CREDO_API_KEY`); without a key only when CREDO_AUTH=off, then `--tenant`."""
    key = os.environ.get("CREDO_API_KEY")
    if key:
        tenant = authenticate(store._db, key).tenant
        if explicit and explicit != tenant:
            raise InvalidInput("--tenant", "the tenant comes from CREDO_API_KEY; drop --tenant or use that key's "
                               "tenant")
        return tenant
    if not settings.auth:
        say(f"WARNING: CREDO_AUTH=off - no API key checked; serving tenant {settings.tenant!r} to whoever runs this")
        return settings.tenant
    raise Unauthenticated("set CREDO_API_KEY to a key (credo keys create), or CREDO_AUTH=off with --tenant for "
                          "local development")
