"""Issue 28 item 3: a backup restores the same answers at every known time, on a private local Neo4j.

On the private instance of tests/ops/conftest.py, read as one timeline: a bitemporal history is written and its
answers recorded at several (valid, known) points, `credo backup` runs, the store changes further, refusals leave it
untouched, `credo restore --force` brings back exactly what the backup held. The backup is made to look one
migration older than this Credo (its record of the newest migration is removed first), so the restore also applies
that migration.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from credo.cypher import Query, migrations
from credo.ops import backup_manifest as manifests
from credo.ops.backup import restore
from credo.ops.migrate import migrate
from credo.schema.errors import ConflictError, InvalidInput
from credo.store import Store
from tests.conftest import Clock

TENANT = "t_backup"
NEWEST = migrations()[-1][0]
CREDO = Path(sys.executable).with_name("credo")
_FORGET_MIGRATION = Query("raw", "MATCH (m:SchemaMigration {version: $version}) DELETE m", frozenset({"version"}))
_RAW_TEXT = Query("raw", "MATCH (n {tenant: $tenant}) RETURN n {.*, embedding: null} AS props", frozenset({"tenant"}))


def cli(settings, *args: str) -> subprocess.CompletedProcess:
    """Run `credo ARGS` against the private instance (no NEO4J_* of the caller's shell)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "CREDO_"))}
    env.update(CREDO_DATA_DIR=str(settings.data_dir), CREDO_INSTANCE=settings.instance, HF_HUB_OFFLINE="1")
    return subprocess.run([str(CREDO), *args], env=env, capture_output=True, text=True, timeout=600)


class Instance:
    """The private server (tests/ops/conftest.py) and a store in this module's tenant."""

    def __init__(self, server) -> None:
        self.server = server
        self.settings = server.settings
        self.local = server.local
        self.clock = Clock(datetime(2025, 1, 1, tzinfo=timezone.utc))

    def connect(self) -> Store:
        """A store in the test tenant on a fresh driver (the server may have restarted)."""
        return Store(self.server.db(), tenant=TENANT, embedder=None, _clock=self.clock, _owns_db=False)


@pytest.fixture(scope="module")
def instance(private_neo4j) -> Instance:
    return Instance(private_neo4j)


def answers(store: Store, points: list[tuple[str, datetime]]) -> dict:
    """`facts` of the whole tenant at each (valid, known) point, as JSON."""
    out = {}
    for valid, known in points:
        read = store.facts(valid_at=valid, known_at=known)
        out[f"{valid}@{known.isoformat()}"] = [f.model_dump(mode="json") for f in read]
    return out


@pytest.fixture(scope="module")
def history(instance: Instance) -> dict:
    """A small bitemporal history (adds, a succession, a correction, a retraction, a forget) and its answers."""
    store = instance.connect()
    known = []
    ada = store.add_fact("Ada", "works_at", "Acme", valid_from="2020-01-01", statement="Ada works at Acme")
    known.append(ada.known_from)
    bob = store.add_fact("Bob", "lives_in", "Lisbon", valid_from="2019-05-01", statement="Bob lives in Lisbon")
    cat = store.add_fact("Cat", "role", "engineer", valid_from="2021-03-01", statement="Cat is an engineer")
    dan = store.add_fact("Dan", "owns", "a red bicycle", valid_from="2018-01-01", statement="Dan owns a red bicycle")
    known.append(dan.known_from)
    moved = store.succeed_fact(ada.fact_id, object="Globex", at="2023-06-01", statement="Ada works at Globex")
    known.append(moved.known_from)
    fixed = store.correct_fact(bob.fact_id, object="Porto", statement="Bob lives in Porto")
    known.append(fixed.known_from)
    store.retract_fact(cat.fact_id, reason="Cat never was an engineer here")
    known.append(instance.clock.now)
    store.forget(dan.fact_id, reason="asked to be forgotten", actor="dpo")
    known.append(instance.clock.now)
    points = [(valid, k) for k in known for valid in ("2019-06-01", "2022-01-01", "2024-01-01")]
    return {"points": points, "answers": answers(store, points), "fact_ids": [ada.fact_id, bob.fact_id]}


@pytest.fixture(scope="module")
def backed_up(instance: Instance, history: dict, tmp_path_factory) -> dict:
    """`credo backup` of the store as the history left it, made to look one migration older than this Credo."""
    store = instance.connect()
    store._db.query(_FORGET_MIGRATION, write=True, version=NEWEST)
    target = tmp_path_factory.mktemp("backups") / "b1"
    pid_before = instance.local.pid()
    run = cli(instance.settings, "backup", "--to", str(target))
    assert run.returncode == 0, run.stderr
    store = instance.connect()
    migrate(store._db)  # the live store is current again; the backup stays one migration behind
    return {"dir": target, "run": run, "pid_before": pid_before, "pid_after": instance.local.pid()}


@pytest.fixture(scope="module")
def changed(instance: Instance, backed_up: dict, history: dict) -> dict:
    """After the backup: more writes and a forget."""
    store = instance.connect()
    eve = store.add_fact("Eve", "speaks", "Finnish", valid_from="2022-02-02", statement="Eve speaks Finnish")
    store.forget(history["fact_ids"][1], reason="forgotten after the backup", actor="dpo")
    return {"eve": eve.fact_id, "now": instance.clock.now}


def test_a_backup_is_a_dump_and_a_manifest_made_with_progress_and_the_server_running_again(instance, backed_up):
    # then the backup directory holds the dump and its manifest
    directory = backed_up["dir"]
    assert sorted(p.name for p in directory.iterdir()) == ["manifest.json", "neo4j.dump"]
    # and stderr said each step: stopping, dumping, the size, the manifest, restarting
    said = backed_up["run"].stderr
    for step in ("stopping Neo4j", "dumping database neo4j", "dump: neo4j.dump,", "manifest:", "restarting Neo4j"):
        assert step in said, said
    # and the server runs again, a new process
    assert backed_up["pid_after"] is not None and backed_up["pid_after"] != backed_up["pid_before"]


def test_the_manifest_names_versions_migrations_counts_ledger_heads_and_the_dumps_checksum(instance, backed_up):
    manifest = manifests.read(backed_up["dir"])
    assert manifest.credo_version and manifest.neo4j_version.startswith("2026.")
    assert [m.version for m in manifest.migrations] == list(range(1, NEWEST))  # the newest was made to look missing
    assert manifest.dump.sha256 == manifests.sha256_file(backed_up["dir"] / "neo4j.dump")
    assert manifest.node_counts["Fact"] >= 6 and manifest.node_counts["AuditEvent"] >= 6
    head = manifest.tenants[TENANT]
    assert head.events == head.ledger_seq and len(head.ledger_head or "") == 64
    datetime.fromisoformat(manifest.created_at)


def test_restore_onto_data_without_force_is_refused_and_changes_nothing(instance, backed_up, changed):
    pid = instance.local.pid()
    with pytest.raises(ConflictError) as caught:
        restore(instance.settings, backed_up["dir"], progress=lambda _msg: None)
    assert "--force" in caught.value.message and "\n" not in caught.value.message
    # the server was not stopped, and what was written after the backup is still there
    assert instance.local.pid() == pid
    assert [f.fact_id for f in instance.connect().facts("Eve")] == [changed["eve"]]


def _copy(backed_up: dict, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(backed_up["dir"], copy)
    return copy


def test_a_dump_with_one_byte_flipped_is_refused_naming_the_checksum(instance, backed_up, changed, tmp_path):
    copy = _copy(backed_up, tmp_path)
    dump = copy / "neo4j.dump"
    data = bytearray(dump.read_bytes())
    data[len(data) // 2] ^= 0x01
    dump.write_bytes(bytes(data))
    pid = instance.local.pid()
    with pytest.raises(InvalidInput) as caught:
        restore(instance.settings, copy, force=True, progress=lambda _msg: None)
    assert caught.value.field == "manifest.dump.sha256" and "restored only as it was written" in caught.value.rule
    assert instance.local.pid() == pid  # refused before anything was stopped


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda m: m["migrations"].append({"version": NEWEST + 1, "name": "from_the_future"}), "manifest.migrations"),
        (lambda m: m["tenants"][TENANT].update(events="many"), f"manifest.tenants.{TENANT}.events"),
        (lambda m: m.pop("dump"), "manifest.dump"),
        (lambda m: m["dump"].update(file="../elsewhere.dump"), "manifest.dump.file"),
    ],
    ids=["migrations-newer-than-this-credo", "a-count-that-is-not-a-number", "no-dump-entry", "a-dump-elsewhere"],
)
def test_a_manifest_that_breaks_a_rule_is_refused_naming_the_field(instance, backed_up, changed, tmp_path, change,
                                                                   field):
    copy = _copy(backed_up, tmp_path)
    manifest = json.loads((copy / "manifest.json").read_text())
    change(manifest)
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(InvalidInput) as caught:
        restore(instance.settings, copy, force=True, progress=lambda _msg: None)
    assert caught.value.field == field, caught.value.message
    assert "\n" not in caught.value.message


@pytest.fixture(scope="module")
def restored(instance: Instance, backed_up: dict, changed: dict) -> subprocess.CompletedProcess:
    """`credo restore --force` of the backup, after the store changed and the refusals above."""
    run = cli(instance.settings, "restore", str(backed_up["dir"]), "--force")
    assert run.returncode == 0, run.stdout + run.stderr
    return run


def test_restore_reads_the_same_answers_at_every_recorded_point_and_loses_what_came_after(instance, history, changed,
                                                                                         restored):
    store = instance.connect()
    # then every (valid, known) point answers as it did when the backup was taken
    assert answers(store, history["points"]) == history["answers"]
    # and what came after the backup is gone: Eve's fact, and the forget of Bob's (his corrected fact reads again)
    assert store.facts("Eve").dated == [] and store.facts("Eve").undated == []
    assert [f.statement for f in store.facts("Bob", valid_at="2024-01-01")] == ["Bob lives in Porto"]


def test_restore_says_each_step_migrates_the_older_backup_and_verifies_every_ledger(instance, restored):
    said = restored.stderr
    for step in ("sha256 matches the manifest", "stopping Neo4j", "loading", "starting Neo4j",
                 "counts match the manifest", f"applied migration(s) {NEWEST:04d}", f"ledger of {TENANT}: ok"):
        assert step in said, said
    assert "restored and checked" in restored.stdout
    store = instance.connect()
    assert store.verify_ledger().ok
    assert [m["version"] for m in manifests.read_state(store._db)["migrations"]][-1] == NEWEST


def test_with_neo4j_uri_set_backup_and_restore_refuse_in_one_line(instance, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "CREDO_"))}
    env.update(NEO4J_URI="neo4j+s://example.databases.neo4j.io", CREDO_DATA_DIR=str(tmp_path))
    for args in (["backup"], ["restore", str(tmp_path)]):
        run = subprocess.run([str(CREDO), *args], env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 1
        [line] = run.stderr.strip().splitlines()
        assert "Aura snapshots" in line and "neo4j-admin" in line
