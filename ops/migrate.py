"""Apply the versioned schema files of `cypher/schema/` idempotently and report their state."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from credo import cypher
from credo.graph.core.db import Database
from credo.graph.core.queries import READ_INDEXES, READ_MIGRATIONS, RECORD_MIGRATION
from credo.schema.errors import MigrationError


def _data_steps() -> dict[int, Callable[[Database], object]]:
    """Data conversions run right after a schema file's statements (by migration number)."""
    from credo.ops.migrate_flag_edges import slim_flag_edges
    from credo.ops.migrate_flags import convert_state_versions
    from credo.ops.migrate_search import drop_partitions

    # 11 and 13 (partitions' labels and slots) have no data step any more: 0018 removes what they made
    return {7: convert_state_versions, 12: slim_flag_edges, 18: drop_partitions}


def statements(text: str) -> list[str]:
    """Split a migration file into statements: comment lines dropped, ';' ends a statement."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return [part.strip() for part in body.split(";") if part.strip()]


def _checksum(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def applied(db: Database) -> list[dict]:
    """Migrations recorded in the graph, oldest first."""
    return db.query(READ_MIGRATIONS)


def migrate(db: Database, *, progress: Callable[[str], None] = lambda _msg: None) -> list[int]:
    """Apply every pending migration; return the versions applied now (empty when up to date)."""
    done = {row["version"]: row for row in applied(db)}
    known = cypher.migrations()
    newest_known = known[-1][0] if known else 0
    ahead = [v for v in done if v > newest_known]
    if ahead:
        raise MigrationError(f"the graph has migration {max(ahead)} but this code knows only up to {newest_known}")
    ran: list[int] = []
    for version, name, text in known:
        if version in done:
            if done[version]["checksum"] != _checksum(text):
                raise MigrationError(f"migration {version:04d}_{name} changed after it was applied; add a new migration instead")
            continue
        progress(f"applying migration {version:04d}_{name}")
        for statement in statements(text):
            try:
                db.run_schema(statement)
            except Exception as exc:  # the driver's error, translated here with its statement
                raise MigrationError(f"migration {version:04d}_{name} failed: {exc}") from exc
        step = _data_steps().get(version)
        if step is not None:
            step(db)
        db.query(RECORD_MIGRATION, write=True, version=version, name=name, checksum=_checksum(text))
        ran.append(version)
    return ran


def status(db: Database) -> dict:
    """Applied and pending migrations plus the state of every index."""
    done = {row["version"] for row in applied(db)}
    pending = [f"{v:04d}_{n}" for v, n, _ in cypher.migrations() if v not in done]
    return {
        "applied": [f"{row['version']:04d}_{row['name']}" for row in applied(db)],
        "pending": pending,
        "indexes": db.query(READ_INDEXES),
    }
