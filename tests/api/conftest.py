"""Fixtures for the service surfaces: the app on the session's Neo4j, API keys of fresh tenants."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from credo.api.rest import create_app
from credo.services import api_keys
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


def new_tenant(db) -> Tenant:
    """A tenant of this test alone, with a key."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    made = api_keys.create_key(db, tenant=name, name="test")
    return Tenant(name=name, key=made.secret, key_id=made.key.key_id)


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
