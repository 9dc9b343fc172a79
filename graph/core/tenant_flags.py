"""Tenant flags in the graph: one :TenantFlag node per setting (known_from, known_to), never changed in place, so a
read at a past known time is a window over settings. Flags belong to no one capability (preference validation, the
gate's attested human messages): any capability reads them here."""

from __future__ import annotations

from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native

READ_TENANT_FLAG = load("read_tenant_flag")
SET_TENANT_FLAG = load("set_tenant_flag")


def flag(tx: Tx, tenant: str, name: str, known: datetime) -> tuple[bool, datetime | None]:
    """Whether a tenant flag is on at `known`, and since when it was set (off and None when never set)."""
    row = tx.one(READ_TENANT_FLAG, tenant=tenant, flag=name, known=known)
    return (bool(row["enabled"]), native(row["known_from"])) if row else (False, None)


def set_flag(tx: Tx, tenant: str, name: str, enabled: bool, known: datetime) -> None:
    """Set a tenant flag from `known` on (the earlier setting closed, never changed)."""
    tx.one(SET_TENANT_FLAG, tenant=tenant, flag=name, enabled=enabled, known=known)
