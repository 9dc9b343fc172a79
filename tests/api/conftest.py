"""Fixtures for the service surfaces: the app on the session's Neo4j, API keys of fresh tenants."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from credo.api.rest import create_app
from credo.services.access import api_keys
from credo.settings import Settings


@dataclass
class Tenant:
    """A fresh tenant with its own API key."""

    name: str
    key: str
    key_id: str

    @property
    def headers(self) -> dict[str, str]:
        """Headers that authenticate as this tenant."""
        return {"X-API-Key": self.key}


def new_tenant(db, *, scopes: tuple[str, ...] = ("operator",), clearance: str = "internal") -> Tenant:
    """A tenant of this test alone, with a key (every scope unless `scopes` says otherwise; the default clearance
    unless `clearance` says otherwise: `all` to read the audit ledger)."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    made = api_keys.create_key(db, tenant=name, name="test", scopes=list(scopes), clearance=clearance)
    return Tenant(name=name, key=made.secret, key_id=made.key.key_id)


def semantic_logged_for(db, tenant: str) -> None:
    """Set the tenant's stored write policy to logged semantic writes (the real operation), so `remember` serves at
    once: for surface tests of the gate and the reads, not of consent (tests/api/test_consent_surfaces.py)."""
    from credo.store import Store

    Store(db, tenant=tenant, embedder=None, _owns_db=False).set_write_policy({"semantic": {"visible": "logged"}})


@pytest.fixture
def api(neo4j_db) -> Iterator[TestClient]:
    """The REST app on the session's Neo4j (lifespan run), without embeddings."""
    app = create_app(Settings(), db=neo4j_db, embedder=None)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def tenant_a(neo4j_db) -> Tenant:
    """Tenant A and its key."""
    return new_tenant(neo4j_db)


@pytest.fixture
def tenant_b(neo4j_db) -> Tenant:
    """Tenant B and its key."""
    return new_tenant(neo4j_db)


@dataclass
class LiveServer:
    """A uvicorn server on 127.0.0.1 with an ephemeral port, serving the app in a thread."""

    url: str
    app: object


@pytest.fixture
def server_settings() -> Settings:
    """Settings of the live server (a test module may override this fixture)."""
    return Settings()


@pytest.fixture
def live_server(neo4j_db, server_settings) -> Iterator[LiveServer]:
    """The REST app served for real by uvicorn (keep-alive, lifespan) on a free loopback port."""
    import threading
    import time

    import uvicorn

    app = create_app(server_settings, db=neo4j_db, embedder=None)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield LiveServer(url=f"http://127.0.0.1:{port}", app=app)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
