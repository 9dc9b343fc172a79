"""`credo neo4j start | stop | status | logs | env`: run the local Neo4j that Credo uses.

Each handler takes the parsed arguments (`args.settings`, `args.verbose`), prints its result and
returns an exit code; errors are raised as `CredoError` for the main CLI to print as one line.
When NEO4J_URI is set the commands report that external server and start or stop nothing.
"""

from __future__ import annotations

import argparse
import shlex

from credo.ops.provision import LocalNeo4j, check_server
from credo.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `neo4j` sub-command and its actions to the main parser's sub-parsers."""
    parser = subparsers.add_parser(
        "neo4j", help="start, stop or inspect the local Neo4j",
        description="Run the local Neo4j Credo uses (jars cached once, data under CREDO_DATA_DIR).",
    )
    actions = parser.add_subparsers(dest="neo4j_command", metavar="ACTION", required=True)
    actions.add_parser("start", help="start it (or report the running one) and print how to connect").set_defaults(
        handler=cmd_start
    )
    actions.add_parser("stop", help="stop it; no Neo4j process is left behind").set_defaults(handler=cmd_stop)
    actions.add_parser("status", help="URI, server version, pid and data directory").set_defaults(
        handler=cmd_status
    )
    logs = actions.add_parser("logs", help="print the end of the Neo4j log")
    logs.add_argument("-n", "--lines", type=int, default=50, help="how many lines (default 50)")
    logs.set_defaults(handler=cmd_logs)
    actions.add_parser("env", help="print `export NEO4J_...` lines; use with eval").set_defaults(handler=cmd_env)


def _external(settings: Settings) -> str | None:
    return settings.neo4j_uri or None


def _print_table(rows: list[tuple[str, object]]) -> None:
    for key, value in rows:
        print(f"  {key:<9} {value if value is not None else '-'}")


def cmd_start(args: argparse.Namespace) -> int:
    """Start the local Neo4j (idempotent) and print its connection settings (where the password is, not it)."""
    settings: Settings = args.settings
    if uri := _external(settings):
        version = check_server(uri, settings.neo4j_user, settings.neo4j_password, settings.connect_timeout_s)
        print(f"NEO4J_URI is set: using Neo4j {version} at {uri}; nothing started")
        return 0
    local = LocalNeo4j(settings)
    info = local.start()
    print(f"Neo4j {info.server_version} is running (pid {info.pid})")
    _print_table([
        ("uri", info.uri), ("user", info.user),
        ("password", f"stored in {local.home / 'credentials.json'} (`credo neo4j env` prints it)"),
        ("database", info.database), ("data", info.data_dir),
    ])
    print('Point other shells at it with: eval "$(credo neo4j env)"')
    return 0


def cmd_stop(args: argparse.Namespace) -> int:
    """Stop the local Neo4j; say so when there is nothing to stop."""
    settings: Settings = args.settings
    if uri := _external(settings):
        print(f"NEO4J_URI is set ({uri}): there is no local Neo4j to stop")
        return 0
    local = LocalNeo4j(settings)
    print("Neo4j stopped" if local.stop() else f"no local Neo4j is running (instance {local.home})")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    """Show URI, server version, pid and data directory; exit 3 when the local server is not running."""
    settings: Settings = args.settings
    if uri := _external(settings):
        version = check_server(uri, settings.neo4j_user, settings.neo4j_password, settings.connect_timeout_s)
        print("external Neo4j (NEO4J_URI)")
        _print_table([("uri", uri), ("version", version), ("user", settings.neo4j_user),
                      ("database", settings.neo4j_database)])
        return 0
    status = LocalNeo4j(settings).status()
    state = "running" if status["answering"] else ("starting or not answering" if status["running"] else "stopped")
    print(f"local Neo4j: {state}")
    _print_table([
        ("uri", status["uri"]), ("version", status["server_version"]), ("pid", status["pid"]),
        ("data", status["data_dir"]), ("log", status["log_file"]),
    ])
    return 0 if status["running"] else 3


def cmd_logs(args: argparse.Namespace) -> int:
    """Print the last lines of the local Neo4j log."""
    settings: Settings = args.settings
    if uri := _external(settings):
        print(f"NEO4J_URI is set ({uri}): its logs live with that server")
        return 0
    text = LocalNeo4j(settings).logs(args.lines)
    print(text or "(no log yet)")
    return 0


def cmd_env(args: argparse.Namespace) -> int:
    """Print `export` lines for the Neo4j Credo would use."""
    settings: Settings = args.settings
    if uri := _external(settings):
        values = {"NEO4J_URI": uri, "NEO4J_USER": settings.neo4j_user, "NEO4J_DATABASE": settings.neo4j_database}
        if settings.neo4j_password is not None:
            values["NEO4J_PASSWORD"] = settings.neo4j_password
        lines = [f"export {name}={shlex.quote(value)}" for name, value in values.items()]
    else:
        lines = LocalNeo4j(settings).env_lines()
    print("\n".join(lines))
    return 0
