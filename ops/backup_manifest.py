"""A backup's `manifest.json`: what the dump beside it holds, read from the live graph just before the dump, and the
rules a restore checks it by (pure, apart from reading the graph and hashing the dump).

    {"format": 1, "credo_version": "0.1.0", "neo4j_version": "2026.08.1", "database": "neo4j",
     "created_at": "2026-12-04T00:10:00+00:00",
     "migrations": [{"version": 1, "name": "initial"}, ...],
     "node_counts": {"AuditEvent": 12, "Fact": 9, ...},
     "tenants": {"acme": {"ledger_seq": 12, "ledger_head": "9f2c...", "events": 12}},
     "dump": {"file": "neo4j.dump", "bytes": 81234, "sha256": "5be1..."}}
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from credo.cypher import load
from credo.graph.core.db import Database
from credo.graph.core.queries import READ_MIGRATIONS
from credo.schema.errors import InvalidInput

READ_LABEL_COUNTS = load("read_label_counts")
READ_LEDGER_HEADS = load("read_ledger_heads")
MANIFEST_FILE = "manifest.json"
FORMAT = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Migration(_Strict):
    """One applied schema migration."""

    version: int = Field(ge=1)
    name: str


class LedgerHead(_Strict):
    """A tenant's ledger head (as its clock records it) and how many ledger events it has."""

    ledger_seq: int | None
    ledger_head: str | None
    events: int = Field(ge=0)


class DumpFile(_Strict):
    """The dump beside the manifest: its file name, size and sha256."""

    file: Literal["neo4j.dump"]
    bytes: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Manifest(_Strict):
    """What a backup holds, so a restore can check it loaded exactly that."""

    format: Literal[1]
    credo_version: str
    neo4j_version: str
    database: str
    created_at: str
    migrations: list[Migration]
    node_counts: dict[str, int]
    tenants: dict[str, LedgerHead]
    dump: DumpFile


def sha256_file(path: Path) -> str:
    """The sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def read_state(db: Database) -> dict:
    """What the live graph holds, in the manifest's terms: migrations, node counts by label, ledger heads."""
    return {
        "migrations": [{"version": r["version"], "name": r["name"]} for r in db.query(READ_MIGRATIONS)],
        "node_counts": {r["label"]: r["nodes"] for r in db.query(READ_LABEL_COUNTS)},
        "tenants": {r["tenant"]: {"ledger_seq": r["ledger_seq"], "ledger_head": r["ledger_head"], "events": r["events"]}
                    for r in db.query(READ_LEDGER_HEADS)},
    }


def credo_version() -> str:
    """The installed Credo's version."""
    try:
        return metadata.version("credo")
    except metadata.PackageNotFoundError:
        return "unknown"


def build(state: dict, *, neo4j_version: str, dump: Path) -> Manifest:
    """The manifest of a dump just written from a graph in `state`."""
    return Manifest(
        format=FORMAT, credo_version=credo_version(), neo4j_version=neo4j_version, database="neo4j",
        created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        migrations=[Migration(**m) for m in state["migrations"]], node_counts=state["node_counts"],
        tenants={t: LedgerHead(**h) for t, h in state["tenants"].items()},
        dump=DumpFile(file="neo4j.dump", bytes=dump.stat().st_size, sha256=sha256_file(dump)),
    )


def write(manifest: Manifest, directory: Path) -> Path:
    """Write `manifest.json` into the backup directory; returns its path."""
    path = directory / MANIFEST_FILE
    path.write_text(json.dumps(manifest.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
    return path


def read(directory: Path) -> Manifest:
    """The manifest of a backup directory, or InvalidInput naming the field and the rule it breaks."""
    path = directory / MANIFEST_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidInput("manifest", f"{path} does not exist: a backup directory holds manifest.json and its dump")
    except (OSError, ValueError) as exc:
        raise InvalidInput("manifest", f"{path} is not readable JSON ({exc})")
    try:
        return Manifest.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in ("manifest", *first["loc"]))
        raise InvalidInput(field, f"{first['msg'].lower()} (the manifest was changed or written by another tool)")


def check(manifest: Manifest, directory: Path, newest_known: int) -> Path:
    """Refuse a backup this Credo cannot restore as written: a dump missing or changed (size, sha256), or migrations
    newer than it knows; returns the dump's path."""
    newest = max((m.version for m in manifest.migrations), default=0)
    if newest > newest_known:
        raise InvalidInput("manifest.migrations", f"the backup was migrated up to {newest}, this Credo knows only up "
                                                  f"to {newest_known}: restore it with a Credo at least as new")
    dump = directory / manifest.dump.file
    if not dump.is_file():
        raise InvalidInput("manifest.dump.file", f"{dump} does not exist: the dump must sit beside its manifest")
    size = dump.stat().st_size
    if size != manifest.dump.bytes:
        raise InvalidInput("manifest.dump.bytes", f"the dump holds {size} bytes, the manifest says "
                                                  f"{manifest.dump.bytes}: a backup is restored only as it was written")
    actual = sha256_file(dump)
    if actual != manifest.dump.sha256:
        raise InvalidInput("manifest.dump.sha256", f"the dump's sha256 is {actual}, the manifest says "
                                                   f"{manifest.dump.sha256}: a backup is restored only as it was written")
    return dump


def differences(manifest: Manifest, state: dict) -> list[str]:
    """What the loaded graph (`state`, read before any migration) holds differently from the manifest, one line each."""
    out = []
    wanted = [{"version": m.version, "name": m.name} for m in manifest.migrations]
    if state["migrations"] != wanted:
        out.append(f"migrations: the graph has {_versions(state['migrations'])}, the manifest {_versions(wanted)}")
    for label in sorted(set(manifest.node_counts) | set(state["node_counts"])):
        want, got = manifest.node_counts.get(label, 0), state["node_counts"].get(label, 0)
        if want != got:
            out.append(f"node_counts.{label or '(no label)'}: the graph has {got}, the manifest {want}")
    out += heads_differences(manifest, state["tenants"])
    return out


def heads_differences(manifest: Manifest, tenants: dict[str, dict]) -> list[str]:
    """Each tenant whose ledger head or event count differs from the manifest's, one line each."""
    out = []
    for tenant in sorted(set(manifest.tenants) | set(tenants)):
        want = manifest.tenants[tenant].model_dump() if tenant in manifest.tenants else None
        got = tenants.get(tenant)
        if want != got:
            out.append(f"tenants.{tenant}: the graph has {_head(got)}, the manifest {_head(want)}")
    return out


def _versions(migrations: list[dict]) -> str:
    return f"{len(migrations)} migration(s) up to {max((m['version'] for m in migrations), default=0)}"


def _head(head: dict | None) -> str:
    if head is None:
        return "no ledger"
    return f"seq {head['ledger_seq']} ({(head['ledger_head'] or '-')[:12]}), {head['events']} event(s)"
