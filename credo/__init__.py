"""Credo: a temporal knowledge store on Neo4j.

    import credo
    with credo.connect(tenant="acme") as store:
        store.add_fact("Alice", "owns", "Acme account", valid_from="2024-01-01")
        store.holders("owns", "Acme account", valid_at="2024-03-01", known_at="2024-04-01")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema.errors import (
    ConfigError,
    ConflictError,
    CredoError,
    DatabaseUnavailable,
    EvidenceRefused,
    Forbidden,
    InvalidInput,
    MigrationError,
    NotFound,
    ProvisioningError,
    TransitionRefused,
)
from credo.schema.facts import AsOf, Fact, ObjectValue, literal
from credo.settings import Settings
from credo.store import Store
from credo.services.truth import cascade as _cascade  # noqa: F401 (registers itself as every write's pre-commit step)


def __getattr__(name: str) -> Any:
    if name == "Client":  # imported lazily: the HTTP client pulls in httpx and the problem table
        from credo.client import Client

        return Client
    raise AttributeError(name)

__all__ = [
    "AsOf", "Client", "ConfigError", "ConflictError", "CredoError", "DatabaseUnavailable", "EvidenceRefused", "Fact",
    "Forbidden", "InvalidInput", "MigrationError", "NotFound", "ObjectValue", "ProvisioningError", "Settings", "Store",
    "TransitionRefused", "connect", "text",
]


def text(value: str) -> ObjectValue:
    """A string literal object (plain strings name entities)."""
    return literal(value)


def connect(
    tenant: str | None = None,
    settings: Settings | None = None,
    *,
    embedder: Any = "default",
    start: bool = True,
    migrate: bool = True,
    progress: Callable[[str], None] | None = None,
    **overrides: Any,
) -> Store:
    """A store handle bound to `tenant`: uses NEO4J_URI if set, else starts the local Neo4j (when `start`).

    `embedder` is "default" (all-MiniLM-L6-v2, loaded on first use), None (no embeddings) or an Embedder;
    `crypto="on"` (CREDO_CRYPTO) turns crypto-erasure on (docs/crypto-erasure.md; keys in CREDO_KEY_DIR). The handle
    acts as the local process user (the audit ledger's actor), with every scope and clearance `all`.
    """
    from credo.bootstrap import open_database, open_store
    from credo.schema.api_keys import Principal

    settings = settings or Settings(**overrides)
    db = open_database(settings, start=start, migrate=migrate, progress=progress)
    try:
        return open_store(settings, db, principal=Principal.local(tenant or settings.tenant), embedder=embedder)
    except BaseException:
        db.close()
        raise
