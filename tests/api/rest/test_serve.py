"""`credo serve` as a process: it answers /health, and two of them on one Neo4j keep one tenant strictly ordered."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from credo.ops import serve_process
from credo.ops.serve_process import CREDO, ServeProcess, free_port
from tests.api.conftest import new_tenant


@contextmanager
def serving(env: dict[str, str], *, timeout_s: float = 120) -> Iterator[tuple[str, ServeProcess]]:
    """Run `credo serve` on a free port until /health answers; stop it with SIGINT (graceful) at the end."""
    with tempfile.TemporaryDirectory(prefix="credo-serve-") as logs, \
            serve_process.serving(env, log=Path(logs) / "serve.log", timeout_s=timeout_s) as server:
        yield server.url, server


@pytest.fixture
def two_servers(cli_env) -> Iterator[tuple[str, str]]:
    """Two `credo serve` processes on the session's Neo4j."""
    env = dict(cli_env, CREDO_AUTH="on")
    with serving(env) as (a, _), serving(env) as (b, _):
        yield a, b


def test_credo_serve_answers_health_and_stops_gracefully(cli_env):
    with serving(dict(cli_env)) as (url, server):
        assert httpx.get(f"{url}/health").json()["status"] == "ok"
        assert httpx.get(f"{url}/v1/stale").status_code == 401
    assert server.proc.returncode == 0


def test_credo_serve_without_neo4j_uri_starts_its_own_and_prints_a_first_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    env.update(CREDO_DATA_DIR=str(tmp_path / "data"), CREDO_INSTANCE=f"serve-{os.getpid()}", HF_HUB_OFFLINE="1",
               CREDO_TENANT="first")
    with serving(env, timeout_s=300) as (url, server):
        health = httpx.get(f"{url}/health").json()
        assert {k: health[k] for k in ("status", "database", "auth")} == {"status": "ok", "database": "up", "auth": True}
        assert health["embedder"] in ("preparing", "ready")
        output = server.output()  # the first key is printed before the server listens
    key = next(line.strip() for line in output.splitlines() if line.strip().startswith("credo_"))
    assert key and "created the first API key" in output
    subprocess.run([CREDO, "neo4j", "stop"], env=env, check=False, capture_output=True, timeout=120)


def test_two_servers_on_one_neo4j_keep_known_time_strictly_increasing(two_servers, neo4j_db):
    tenant = new_tenant(neo4j_db)
    headers = {"X-API-Key": tenant.key}

    def writer(n: int) -> list[str]:
        url = two_servers[n % 2]
        with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
            return [http.post("/v1/facts", json={"subject": f"w{n}", "predicate": "note", "object": f"v{i}",
                                                 "object_is_entity": False}).json()["result"]["known_from"]
                    for i in range(8)]

    with ThreadPoolExecutor(6) as pool:
        per_writer = list(pool.map(writer, range(6)))
    for times in per_writer:
        assert times == sorted(times) and len(set(times)) == len(times)
    everything = [t for times in per_writer for t in times]
    assert len(set(everything)) == len(everything) == 48  # no two commits of the tenant share a known time


def test_competing_successions_on_two_servers_exactly_one_wins(two_servers, neo4j_db):
    tenant = new_tenant(neo4j_db)
    headers = {"X-API-Key": tenant.key}
    first = httpx.post(f"{two_servers[0]}/v1/facts", headers=headers, timeout=60, json={
        "subject": "Acme", "predicate": "owned_by", "object": "Alice", "valid_from": "2024-01-01"}).json()["result"]

    def succeed(n: int) -> httpx.Response:
        return httpx.post(f"{two_servers[n % 2]}/v1/facts/{first['version_id']}/succeed", headers=headers, timeout=60,
                          json={"object": f"Heir{n}", "at": "2024-06-01"})

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(succeed, range(6)))
    won = [a for a in answers if a.status_code == 200]
    lost = [a for a in answers if a.status_code != 200]
    assert len(won) == 1
    assert all(a.status_code == 409 and a.json()["code"] in ("not_current", "race_lost") for a in lost), \
        [a.json() for a in lost]
    heir = won[0].json()["result"]["object_name"]
    now = httpx.get(f"{two_servers[1]}/v1/facts", headers=headers, params={"subject": "Acme", "valid_at": "2024-07-01"})
    assert [f["object_name"] for f in now.json()["items"]] == [heir]
    history = httpx.get(f"{two_servers[0]}/v1/facts/{first['fact_id']}/history", headers=headers).json()["items"]
    assert [v["known_to"] is None for v in history].count(True) == 1  # nothing half-written: one current version


def test_auth_off_refuses_to_listen_beyond_loopback(cli_env):
    env = dict(cli_env, CREDO_AUTH="off")
    done = subprocess.run([CREDO, "serve", "--host", "0.0.0.0", "--port", str(free_port())], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "local development only" in done.stderr
