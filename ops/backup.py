"""`credo backup` and `credo restore` of the local server that `credo neo4j` manages (README, Backups).

A backup is a directory: `neo4j.dump` (Neo4j's own dump of the stopped database, ops/backup_admin.py) and
`manifest.json` (ops/backup_manifest.py: versions, migrations, node counts by label, each tenant's ledger head and
event count, the dump's sha256). The crypto-erasure keys (CREDO_KEY_DIR) are never in it, by design
(docs/crypto-erasure.md): a backup restored after a forget cannot open what that forget erased.

A restore checks the manifest and the dump before it touches anything, refuses to replace a database holding data
without `force`, then stops the server, loads the dump, starts it, checks node counts and ledger heads against the
manifest (before any migration, so they compare what was loaded), applies the migrations a backup older than this
Credo lacks, and verifies every tenant's ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from credo import cypher
from credo.graph.core.db import Database
from credo.ops import backup_admin as admin
from credo.ops import backup_manifest as manifests
from credo.ops.migrate import migrate
from credo.ops.provision import ConnectionInfo, LocalNeo4j, print_to_stderr
from credo.schema.errors import ConfigError, ConflictError, InvalidInput
from credo.settings import Settings

Progress = Callable[[str], None]


@dataclass(frozen=True)
class BackupResult:
    """Where a backup was written and what its manifest says."""

    directory: Path
    manifest: manifests.Manifest


@dataclass
class RestoreResult:
    """What a restore loaded and what its checks found (`ok`: every check passed)."""

    directory: Path
    manifest: manifests.Manifest
    migrated: list[int] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    ledgers: dict[str, str] = field(default_factory=dict)  # tenant -> "ok, N events" or its first problem
    ledger_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when counts and heads match the manifest and every tenant's ledger verifies."""
        return not self.differences and not self.ledger_problems


def refuse_external(settings: Settings) -> None:
    """One line when NEO4J_URI names another server: its own tooling backs it up."""
    if settings.neo4j_uri:
        raise ConfigError(f"NEO4J_URI is set ({settings.neo4j_uri}): backup and restore work on the local server "
                          "`credo neo4j` manages; use that server's own tooling (Aura snapshots, neo4j-admin on "
                          "that server)")


def default_directory(settings: Settings) -> Path:
    """`<data dir>/backups/<instance>-<UTC time>`."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return settings.data_dir / "backups" / f"{settings.instance}-{stamp}"


def _open(info: ConnectionInfo, settings: Settings) -> Database:
    db = Database(info.uri, info.user, info.password, info.database, timeout_s=settings.connect_timeout_s)
    db.verify()
    return db


def _read_state(local: LocalNeo4j, settings: Settings) -> tuple[dict, str]:
    info = local.running_info() or local.start()
    db = _open(info, settings)
    try:
        return manifests.read_state(db), info.server_version or "unknown"
    finally:
        db.close()


def _target(settings: Settings, to: Path | None) -> Path:
    target = (to or default_directory(settings)).expanduser().resolve()
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InvalidInput("--to", f"{target} exists and is not an empty directory: a backup goes into a new one")
    keys = settings.keys_dir().expanduser().resolve()
    if target == keys or keys in target.parents:
        raise InvalidInput("--to", f"{target} is inside the key directory {keys}: a backup must never sit with the "
                                   "crypto-erasure keys (docs/crypto-erasure.md)")
    return target


def backup(settings: Settings, to: Path | None = None, *, progress: Progress = print_to_stderr) -> BackupResult:
    """Dump the local database into a new directory with its manifest; the server runs afterwards iff it ran
    before (it is stopped for the dump: Community has no online backup)."""
    refuse_external(settings)
    target = _target(settings, to)
    local = LocalNeo4j(settings, progress=progress)
    was_running = local.pid() is not None
    if not was_running:
        progress("Neo4j is stopped: starting it to read the manifest's counts and ledger heads")
    state, version = _read_state(local, settings)
    progress(f"stopping Neo4j to dump its database (Neo4j {version} Community dumps only a stopped database)")
    local.stop()
    try:
        target.mkdir(parents=True, exist_ok=True)
        progress(f"dumping database neo4j into {target} ...")
        dump = admin.dump(local, target)
        progress(f"dump: {dump.name}, {_size(dump.stat().st_size)}")
        manifest = manifests.build(state, neo4j_version=version, dump=dump)
        path = manifests.write(manifest, target)
        progress(f"manifest: {path} ({len(manifest.tenants)} tenant(s), {_total(manifest.node_counts)} node(s), "
                 f"migrations up to {_newest(manifest)}, sha256 {manifest.dump.sha256[:16]}...)")
    finally:
        if was_running:
            progress("restarting Neo4j")
            local.start()
        else:
            progress("leaving Neo4j stopped, as it was")
    return BackupResult(target, manifest)


def restore(settings: Settings, source: Path, *, force: bool = False,
            progress: Progress = print_to_stderr) -> RestoreResult:
    """Replace the local database by a backup, then check it against its manifest and verify every ledger."""
    refuse_external(settings)
    source = source.expanduser().resolve()
    manifest = manifests.read(source)
    known = cypher.migrations()
    dump = manifests.check(manifest, source, known[-1][0] if known else 0)
    progress(f"backup checked: {manifest.dump.file}, {_size(manifest.dump.bytes)}, sha256 matches the manifest "
             f"(made {manifest.created_at} by Credo {manifest.credo_version} on Neo4j {manifest.neo4j_version})")
    local = LocalNeo4j(settings, progress=progress)
    was_running = local.pid() is not None
    state, _ = _read_state(local, settings)
    held = _total(state["node_counts"]) - state["node_counts"].get("SchemaMigration", 0)
    if held and not force:
        if not was_running:
            local.stop()
        raise ConflictError(f"database neo4j in {local.home}", f"it holds {held} node(s) of data and a restore "
                                                               "replaces them all: pass --force to overwrite")
    progress("stopping Neo4j to load the dump")
    local.stop()
    progress(f"loading {dump} ...")
    admin.load(local, source)
    progress("starting Neo4j on the restored database")
    db = _open(local.start(), settings)
    try:
        return _check_restored(db, RestoreResult(source, manifest), progress)
    finally:
        db.close()


def _check_restored(db: Database, result: RestoreResult, progress: Progress) -> RestoreResult:
    manifest = result.manifest
    result.differences = manifests.differences(manifest, manifests.read_state(db))
    for line in result.differences:
        progress(f"differs from the manifest: {line}")
    if not result.differences:
        progress(f"counts match the manifest: {_total(manifest.node_counts)} node(s), "
                 f"{len(manifest.tenants)} ledger head(s)")
    result.migrated = migrate(db, progress=progress)
    if result.migrated:
        progress(f"the backup was older: applied migration(s) {', '.join(f'{v:04d}' for v in result.migrated)}")
        after = manifests.heads_differences(manifest, manifests.read_state(db)["tenants"])
        result.differences += [f"after migrating: {line}" for line in after]
    for tenant in sorted(manifest.tenants):
        report = _verify_ledger(db, tenant)
        if report.ok:
            result.ledgers[tenant] = f"ok, {report.events} event(s), head seq {report.head_seq}"
        else:
            first = report.problems[0]
            first = f"{first.kind} at seq {first.seq}: {first.detail}"
            result.ledgers[tenant] = f"FAILED: {len(report.problems)} problem(s), first: {first}"
            result.ledger_problems.append(f"{tenant}: {first}")
        progress(f"ledger of {tenant}: {result.ledgers[tenant]}")
    return result


def _verify_ledger(db: Database, tenant: str):
    from credo.store import Store  # the ledger check every surface runs (services/ledger/audit.py)

    return Store(db, tenant=tenant, embedder=None, _owns_db=False).verify_ledger()


def _total(counts: dict[str, int]) -> int:
    return sum(counts.values())


def _newest(manifest: manifests.Manifest) -> str:
    return f"{max((m.version for m in manifest.migrations), default=0):04d}"


def _size(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB" if size >= 1 << 20 else f"{size / 1024:.0f} KiB"
