"""Which crypto-erasure keys sealed which content, and who still needs them (the keys themselves are not here)."""

from __future__ import annotations

from credo.cypher import load
from credo.graph.core.db import Tx

READ_CONTENT_KEYS = load("read_content_keys")
READ_KEY_USERS = load("read_key_users")
READ_TENANT_SEALED = load("read_tenant_sealed")


def tenant_sealed(tx: Tx, tenant: str) -> bool:
    """Whether the tenant's commit clock is marked as holding crypto-sealed content."""
    return sealed_by(tx, tenant)[0]


def sealed_by(tx: Tx, tenant: str) -> tuple[bool, str | None]:
    """(sealed, the id of the key store that sealed it or None when not recorded) from the tenant's commit clock."""
    row = tx.one(READ_TENANT_SEALED, tenant=tenant)
    return (bool(row["sealed"]), row["key_store"]) if row else (False, None)


def content_keys(tx: Tx, tenant: str, *, fact_ids: list[str], source_ids: list[str]) -> list[str]:
    """Key ids that sealed the content of these facts (every version) and sources."""
    if not fact_ids and not source_ids:
        return []
    row = tx.one(READ_CONTENT_KEYS, tenant=tenant, fact_ids=fact_ids, source_ids=source_ids)
    return list(row["keys"]) if row else []


def key_users(tx: Tx, tenant: str, keys: list[tuple[str, str, str]]) -> dict[str, int]:
    """Remembered nodes still sealed under each (key_id, kind, id) key."""
    if not keys:
        return {}
    rows = [{"key_id": k, "kind": kind, "id": i} for k, kind, i in keys]
    return {r["key_id"]: r["users"] for r in tx.rows(READ_KEY_USERS, tenant=tenant, rows=rows)}
