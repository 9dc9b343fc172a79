"""`credo serve` (REST + mounted surfaces on one app) and `credo keys create|list|revoke`."""

from __future__ import annotations

import argparse
import json
import sys

from credo.bootstrap import open_database
from credo.graph.core.db import Database
from credo.schema.errors import ConfigError
from credo.schema.search import check_clearance
from credo.services.access import api_keys


def register(sub: argparse._SubParsersAction) -> None:
    """Add the serve and keys commands."""
    serve = sub.add_parser("serve", help="set up, migrate, and serve the REST API (and MCP when present)")
    serve.add_argument("--host", default=None, help="interface to bind (default CREDO_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port (default CREDO_PORT or 8080; 0 = any free)")
    serve.add_argument("--no-first-key", action="store_true", help="do not create a first API key")
    serve.set_defaults(handler=cmd_serve)
    keys = sub.add_parser("keys", help="API keys of the service").add_subparsers(dest="keys_command", required=True)
    create = keys.add_parser("create", help="create a key for --tenant (the secret is printed once)")
    create.add_argument("--name", default=None)
    create.add_argument("--clearance", default="internal",
                        help="what the key may read: public, internal, confidential, secret or all (default internal)")
    create.add_argument("--scope", action="append", default=None, metavar="SCOPE",
                        help="read, write, curate, forget, admin, attest, or a preset: reader, agent (read+write, the "
                             "default), curator (read, write, curate, forget), harness (read, write, attest: the app "
                             "that receives the person's input), operator (all); repeat or comma-separate")
    create.add_argument("--json", action="store_true")
    create.set_defaults(handler=cmd_keys_create)
    listing = keys.add_parser("list", help="keys (never their secrets), of --tenant or --all tenants")
    listing.add_argument("--all", action="store_true")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=cmd_keys_list)
    revoke = keys.add_parser("revoke", help="revoke a key by its id (requests with it answer 401)")
    revoke.add_argument("key_id")
    revoke.set_defaults(handler=cmd_keys_revoke)


def _database(args: argparse.Namespace, *, start: bool = True) -> Database:
    return open_database(args.settings, start=start, progress=lambda m: print(m, file=sys.stderr))


def cmd_keys_create(args: argparse.Namespace) -> int:
    """Create a key and print its secret once."""
    check_clearance(args.clearance)  # refused before the database is reached
    db = _database(args)
    try:
        made = api_keys.create_key(db, tenant=args.settings.tenant, clearance=args.clearance, name=args.name,
                                   scopes=args.scope)
    finally:
        db.close()
    key = made.key
    if args.json:
        print(json.dumps({"key_id": key.key_id, "tenant": key.tenant, "clearance": key.clearance,
                          "scopes": list(key.scopes or ()), "secret": made.secret}))
    else:
        print(f"key {key.key_id} for tenant {key.tenant!r}, clearance {key.clearance}, scopes "
              f"{', '.join(key.scopes or ())} (shown once, store it now):\n{made.secret}")
    return 0


def cmd_keys_list(args: argparse.Namespace) -> int:
    """List keys without secrets."""
    db = _database(args)
    try:
        keys = api_keys.list_keys(db, tenant=None if args.all else args.settings.tenant)
    finally:
        db.close()
    if args.json:
        print(json.dumps([k.model_dump(mode="json") for k in keys]))
        return 0
    for k in keys:
        state = f"revoked {k.revoked_at.isoformat()}" if k.revoked_at else "active"
        scopes = ",".join(k.scopes) if k.scopes is not None else "all (made before scopes)"
        print(f"{k.key_id}  {k.tenant}  {k.clearance}  {scopes}  {k.name or '-'}  created {k.created_at.isoformat()}"
              f"  {state}")
    return 0


def cmd_keys_revoke(args: argparse.Namespace) -> int:
    """Revoke a key."""
    db = _database(args)
    try:
        key = api_keys.revoke_key(db, key_id=args.key_id)
    finally:
        db.close()
    print(f"revoked {key.key_id} (tenant {key.tenant})")
    return 0


def mcp_mounts() -> list:
    """The surfaces mounted beside REST: MCP over streamable HTTP at /mcp (credo.api.mcp.http.mcp_mount)."""
    from credo.api.mcp.http import mcp_mount

    return [mcp_mount]


def cmd_serve(args: argparse.Namespace) -> int:
    """Start Neo4j if NEO4J_URI is unset, migrate, create a first key if none exists, serve until interrupted."""
    import uvicorn

    from credo.api.rest import create_app

    settings = args.settings
    host = args.host or settings.host
    port = settings.port if args.port is None else args.port
    if not settings.auth and host not in ("127.0.0.1", "localhost", "::1"):
        raise ConfigError(f"CREDO_AUTH=off is for local development only; refusing to listen on {host}")
    db = _database(args, start=True)
    if settings.auth and not args.no_first_key and not api_keys.list_keys(db, tenant=None):
        made = api_keys.create_key(db, tenant=settings.tenant, name="first key (credo serve)", scopes=["operator"],
                                   clearance="all")
        print(f"created the first API key for tenant {settings.tenant!r} (every scope, clearance all: an operator's "
              f"key; give agents `credo keys create --scope agent`); it is shown once, store it now:\n"
              f"  {made.secret}\nuse it as  X-API-Key: <key>  or  Authorization: Bearer <key>", flush=True)
    if not settings.auth:
        print("WARNING: CREDO_AUTH=off — every request acts in tenant "
              f"{settings.tenant!r} WITHOUT A KEY. Local development only.", file=sys.stderr, flush=True)
    app = create_app(settings, db=db, mounts=mcp_mounts())
    app.state.runtime.owns_db = True  # the lifespan closes the driver this command opened
    print(f"serving Credo on http://{host}:{port}  (docs: /docs, health: /health)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="info", timeout_graceful_shutdown=10)
    return 0
