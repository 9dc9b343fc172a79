"""API keys in the graph: create, find by public id, list, revoke. Only hashes are stored."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Database
from credo.graph.core.records import native
from credo.schema.api_keys import ApiKey

CREATE_API_KEY = load("create_api_key")
READ_API_KEY = load("read_api_key")
READ_API_KEYS = load("read_api_keys")
REVOKE_API_KEY = load("revoke_api_key")


def _key(row: dict[str, Any]) -> tuple[ApiKey, str]:
    data = {k: native(v) for k, v in row["key"].items()}
    if data.get("scopes") is not None:
        data["scopes"] = tuple(data["scopes"])  # absent: a key made before scopes (it keeps every scope)
    return ApiKey(**{k: v for k, v in data.items() if k != "hash"}), data["hash"]


def key_of(node: dict[str, Any]) -> ApiKey:
    """A key from the map projection of its :ApiKey node (its hash left out)."""
    return _key({"key": node})[0]


def create(db: Database, *, key_id: str, hash: str, tenant: str, clearance: str, scopes: list[str],
           name: str | None, at: datetime) -> ApiKey:
    """Store a new key's hash; returns the key without it."""
    rows = db.query(CREATE_API_KEY, write=True, key_id=key_id, hash=hash, tenant=tenant, clearance=clearance,
                    scopes=scopes, name=name, created_at=at)
    return _key(rows[0])[0]


def find(db: Database, key_id: str) -> tuple[ApiKey, str] | None:
    """The key and its stored hash, or None."""
    rows = db.query(READ_API_KEY, key_id=key_id)
    return _key(rows[0]) if rows else None


def listed(db: Database, tenant: str | None) -> list[ApiKey]:
    """Keys of one tenant (or all), oldest first."""
    return [_key(row)[0] for row in db.query(READ_API_KEYS, tenant=tenant)]


def revoke(db: Database, key_id: str, at: datetime) -> ApiKey | None:
    """Mark a key revoked; None when there is no such key."""
    rows = db.query(REVOKE_API_KEY, write=True, key_id=key_id, at=at)
    return _key(rows[0])[0] if rows else None
