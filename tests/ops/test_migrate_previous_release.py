"""A store made by the previous release (Neo4j 5.26, main at 9d9301f) is loaded, migrated, and answers the same.

The fixture (`tests/fixtures/previous_release/`, made by its `make_store.py` with the previous release's code) is a
5.26 `neo4j-admin` dump of two tenants written through the public API, and the answers every read gave at every
known time each tenant's clock passed through. Here a fresh local instance of the current release loads the dump
with its own `neo4j-admin database load` before its first start, starts, runs every pending migration, and reads
each recorded answer again through the current API.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from credo import cypher
from credo.cypher import Query
from credo.ops import provision_dist as dist
from credo.graph.core.db import Database
from credo.ops.migrate import migrate, status
from credo.ops.provision import LocalNeo4j
from credo.services.adapters.embeddings import default_embedder
from credo.settings import Settings
from credo.store import Store
from tests.fixtures.previous_release import reads

FIXTURE = Path(reads.__file__).parent
DUMP, ANSWERS = FIXTURE / "neo4j-5.26.dump", FIXTURE / "answers.json.gz"
pytestmark = pytest.mark.skipif(not (DUMP.is_file() and ANSWERS.is_file()),
                                reason=f"no previous-release fixture in {FIXTURE} (make it with its make_store.py)")


class FrozenClock:
    """The clock the answers were read at: each read advances one millisecond."""

    def __init__(self, at: str) -> None:
        self.now = datetime.fromisoformat(at)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


@pytest.fixture(scope="module")
def recorded() -> dict:
    """The previous release's answers."""
    with gzip.open(ANSWERS, "rt", encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """A fresh local instance of the current release whose database is the previous release's dump, loaded before
    its first start; yields (settings, a driver on it, the migrations applied now)."""
    data = tmp_path_factory.mktemp("prev-release")
    settings = Settings(neo4j_uri=None, data_dir=data, use_docker=False, instance="prev")
    local = LocalNeo4j(settings, progress=lambda _: None)
    lib = local.ensure_distribution()
    home = settings.instance_dir
    for sub in ("conf", "data", "logs", "plugins", "run"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    (home / "conf" / "neo4j.conf").write_text(
        "".join(f"server.directories.{name}={home / name}\n" for name in ("data", "logs", "plugins", "run")))
    dumps = data / "dumps"
    dumps.mkdir()
    shutil.copyfile(DUMP, dumps / "neo4j.dump")  # neo4j-admin reads <database>.dump from a folder
    env = {**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(home / "conf")}
    done = subprocess.run([str(dist.find_java()), "-cp", f"{lib}/*", "org.neo4j.cli.AdminTool", "database", "load",
                           "neo4j", f"--from-path={dumps}", "--overwrite-destination=true"],
                          env=env, cwd=home, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    info = local.start()
    db = Database(info.uri, info.user, info.password, info.database, timeout_s=30)
    try:
        ran = migrate(db)
        yield settings, db, ran
    finally:
        db.close()
        local.stop()
        shutil.rmtree(data, ignore_errors=True)  # half a GB (the store and its preallocated transaction logs)


def _store(db: Database, tenant: str, recorded: dict) -> Store:
    at = recorded["tenants"][tenant]["read_at"]
    return Store(db, tenant=tenant, embedder=default_embedder(), _clock=FrozenClock(at), _owns_db=False)


def test_every_migration_since_the_previous_release_runs_on_its_store(loaded, recorded):
    _, db, ran = loaded
    # given a store the previous release had migrated up to its newest migration, when the current code migrates it
    before = {int(name[:4]) for name in recorded["migrations"]}
    # then exactly the migrations that release did not know ran, and none is pending
    assert ran == sorted({version for version, _, _ in cypher.migrations()} - before)
    report = status(db)
    assert report["pending"] == []
    assert set(report["applied"]) >= set(recorded["migrations"])
    assert all(i["state"] == "ONLINE" for i in report["indexes"]), report["indexes"]


@pytest.mark.parametrize("tenant", ["prev-small", "prev-big"])
def test_every_read_answers_as_it_did_at_every_known_time(loaded, recorded, tenant):
    _, db, _ = loaded
    mine = recorded["tenants"][tenant]
    story, packed = mine["story"], mine["answers"]
    # when every read of the previous release is asked again at every known time it was asked at
    now = reads.answers(_store(db, tenant, recorded), known_times=mine["known_times"],
                        valid_times=story["valid_times"], fact_ids=story["fact_ids"], entities=story["entities"],
                        subjects=story["subjects"], summary_ids=story["summary_ids"], forgotten=story["forgotten"],
                        fields=recorded["fact_fields"],
                        watched=None if story["watched"] is None else set(story["watched"]))
    # then each answer is the one it gave (fields added since are not compared)
    assert set(now) == set(packed["keys"])
    differ = []
    for key, digest in packed["keys"].items():
        was = packed["values"][digest]
        if reads.shaped_like(now[key], was) != was:
            differ.append((key, was, reads.shaped_like(now[key], was)))
    assert not differ, (f"{len(differ)} of {len(now)} answers differ: {[key for key, _, _ in differ[:5]]}; the first "
                        f"was {differ[0][1]!r:.1500} and is {differ[0][2]!r:.1500}")
    assert len(mine["known_times"]) > 10 and len(now) > 100  # the fixture really covers a timeline


@pytest.mark.parametrize("tenant", ["prev-small", "prev-big"])
def test_search_finds_what_it_found_before_by_the_same_paths(loaded, recorded, tenant):
    _, db, _ = loaded
    asked = recorded["tenants"][tenant]["search"]
    store = _store(db, tenant, recorded)
    # when a question the previous release answered is asked again, at the same point
    hits = store.search(asked["query"], valid_at=asked["valid_at"],
                        known_at=recorded["tenants"][tenant]["read_at"]).hits
    # then the fact it found is found again, by the full-text and the vector paths alike, and only this tenant's
    found = {h.id: h for h in hits}
    assert asked["expected"] in found, [h.id for h in hits]
    assert sorted(found[asked["expected"]].paths) == asked["paths"]
    assert all(h.fact is None or h.fact.tenant == tenant for h in hits)


_RUNTIME = re.compile(r"^fact_(embedding|text)_[st]_")  # partition slots: made at run time, not by a migration
_INDEXES = Query("test_index_shapes", "SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, options "
                 "RETURN name, type, entityType, labelsOrTypes, properties, options.indexConfig AS config",
                 frozenset())
_CONSTRAINTS = Query("test_constraint_shapes", "SHOW CONSTRAINTS YIELD name, type, entityType, labelsOrTypes, "
                     "properties RETURN name, type, entityType, labelsOrTypes, properties", frozenset())


_SERVER_NAMED = re.compile(r"^(index|constraint)_[0-9a-f]{8}$")  # the token lookup indexes: named by the server


def _schema(db: Database) -> list[dict]:
    rows = [row for query in (_INDEXES, _CONSTRAINTS) for row in db.query(query) if not _RUNTIME.match(row["name"])]
    for row in rows:
        if _SERVER_NAMED.match(row["name"]):
            row["name"] = f"{row['type']} {row['entityType']}".lower()
    return sorted(rows, key=lambda row: row["name"])


def test_the_migrated_store_has_the_schema_of_one_migrated_from_empty(loaded, neo4j_db):
    _, db, _ = loaded
    # given the previous release's store migrated one migration after another by the current code, and the test
    # session's store migrated from empty: then both have the same indexes and constraints, each of the same shape
    assert _schema(db) == _schema(neo4j_db)
