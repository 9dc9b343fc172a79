"""Issue 12 acceptance: killing the Neo4j process in the middle of a tenant-wide forget of 10k facts and resuming
completes it with nothing left, and nothing that was not asked to be forgotten is gone.

Starts a private local Neo4j (its own instance directory), kills it with SIGKILL mid-batch, starts it again on the
same data and resumes the persisted job. Slow (two server starts, 10k facts): about two minutes.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid

import pytest

import credo
from credo.cypher import Query
from credo.ops.provision import LocalNeo4j
from credo.schema.errors import CredoError
from credo.settings import Settings

N = 10_000
_LEFT = Query("raw", "MATCH (f:Fact {tenant: $tenant}) WHERE f.statement IS NOT NULL OR f.forgotten_at IS NULL "
                     "RETURN count(f) AS n", frozenset())
_KEPT = Query("raw", "MATCH (f:Fact {tenant: $tenant}) WHERE f.statement IS NOT NULL AND f.forgotten_at IS NULL "
                     "RETURN count(f) AS n", frozenset())


def _rows(prefix: str, n: int) -> list[dict]:
    return [{"subject": f"{prefix} item {i}", "predicate": "stored_in", "object": f"{prefix} shelf {i % 50}",
             "valid_from": "2024-01-01", "statement": f"{prefix} item {i} is stored in shelf {i % 50}"} for i in range(n)]


@pytest.fixture
def private_server(tmp_path, monkeypatch):
    # recovery after SIGKILL replays the logs; on a busy 2-core machine it can outlast the default start timeout
    monkeypatch.setattr("credo.ops.provision.START_TIMEOUT_S", 600.0)
    settings = Settings(neo4j_uri=None, data_dir=tmp_path / "data", use_docker=False,
                        instance=f"forgetcrash-{uuid.uuid4().hex[:8]}", connect_timeout_s=3.0)
    local = LocalNeo4j(settings, progress=lambda _: None)
    local.start()
    yield settings, local
    local.stop(timeout=30)


def test_killing_neo4j_mid_tenant_forget_of_10k_facts_then_resuming_completes_it_and_keeps_everything_else(
        private_server):
    settings, local = private_server
    # given 10k facts in one tenant and 300 in another
    store = credo.connect("t_gone", settings, embedder=None, start=False)
    keep = store.for_tenant("t_keep")
    for start in range(0, N, 2_000):
        store.add_facts(_rows("Gone", N)[start:start + 2_000])
    keep.add_facts(_rows("Kept", 300))
    # when the server is killed (SIGKILL) in the middle of the tenant-wide forget
    pid = local.pid()
    killed = threading.Event()

    def kill_soon(job):
        if job.done >= 3_000 and not killed.is_set():
            killed.set()
            threading.Timer(0.3, lambda: os.kill(pid, signal.SIGKILL)).start()

    with pytest.raises(CredoError):
        store.forget_tenant(reason="tenant closed", actor="ops", batch_size=500, progress=kill_soon)
    assert killed.is_set()
    store.close()
    for _ in range(50):
        if local.pid() is None:
            break
        time.sleep(0.2)
    local.start()
    # and the forget is resumed on the restarted server
    again = credo.connect("t_gone", settings, embedder=None, start=False)
    try:
        [job] = again.forget_resume()
        # then it completes with nothing left, verified, and the other tenant lost nothing
        assert job.state == "complete" and job.report.complete, job.report.residue
        assert job.done >= N
        assert again._db.query(_LEFT, tenant="t_gone")[0]["n"] == 0
        assert again._db.query(_KEPT, tenant="t_keep")[0]["n"] == 300
        assert len(again.for_tenant("t_keep").facts(predicate="stored_in")) == 300
    finally:
        again.close()
