"""Neo4j's own `database dump` and `database load` of the stopped local database, through `org.neo4j.cli.AdminTool`.

They run on the jars and the Java that start the server (ops/provision.py `_set_initial_password` runs the same
tool), with the instance's home and config, so the tool finds the store the server uses. The 2026.08.1 Community
jars offer `database check | dump | import | info | load | migrate | upload`: no online `database backup` (an
Enterprise command), so a backup stops the server, dumps and starts it again.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from credo.ops import provision_dist as dist
from credo.ops.provision import LocalNeo4j
from credo.ops.provision_proc import file_lock
from credo.schema.errors import ProvisioningError

ADMIN_TOOL = "org.neo4j.cli.AdminTool"
DATABASE = "neo4j"  # Community's one user database; `system` (users, the password) stays with the instance
DUMP_FILE = f"{DATABASE}.dump"
TIMEOUT_S = 3600.0


def _run(local: LocalNeo4j, *args: str) -> str:
    """Run one AdminTool command on the instance's home while holding its lock; its output, or ProvisioningError."""
    java = dist.find_java()
    lib = local.ensure_distribution()
    env = {**os.environ, "NEO4J_HOME": str(local.home), "NEO4J_CONF": str(local.home / "conf")}
    with file_lock(local.home):  # a `credo neo4j start` meanwhile waits for the tool to finish
        if local.pid() is not None:
            raise ProvisioningError(f"Neo4j runs again in {local.home}: `database {args[0]}` needs it stopped")
        done = subprocess.run(
            [str(java), "-cp", f"{lib}/*", ADMIN_TOOL, "database", *args],
            env=env, cwd=local.home, capture_output=True, text=True, timeout=TIMEOUT_S,
        )
    output = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        lines = [line for line in output.splitlines() if line.strip() and not line.startswith("\t")]
        raise ProvisioningError(f"neo4j-admin database {args[0]} failed: {(lines or ['no output'])[-1][:300]}",
                                detail=output or None)
    return output


def dump(local: LocalNeo4j, to_dir: Path) -> Path:
    """Dump the stopped database into `to_dir/neo4j.dump`; returns its path."""
    _run(local, "dump", DATABASE, f"--to-path={to_dir}")
    path = to_dir / DUMP_FILE
    if not path.is_file():
        raise ProvisioningError(f"neo4j-admin database dump wrote no {DUMP_FILE} in {to_dir}")
    return path


def load(local: LocalNeo4j, from_dir: Path) -> None:
    """Replace the stopped database with the dump `from_dir/neo4j.dump`."""
    _run(local, "load", DATABASE, f"--from-path={from_dir}", "--overwrite-destination=true")
