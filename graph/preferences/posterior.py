"""Preference posteriors in the graph: one :PreferencePosterior node per version (known_from, known_to), so a read at
a past known time is a window over versions. (Tenant flags: graph/core/tenant_flags.py.)"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native

READ_PREFERENCE = load("read_preference")
CREATE_PREFERENCE_VERSION = load("create_preference_version")


def posterior(tx: Tx, tenant: str, fact_id: str, known: datetime | None) -> tuple[dict[str, Any] | None, str | None]:
    """The posterior version of a preference at `known` (None: now) the caller may see, as plain properties (None:
    no outcome counted by then), and the id of the drift item open for it then."""
    row = tx.one(READ_PREFERENCE, tenant=tenant, fact_id=fact_id, known=known)
    if row is None:
        return None, None
    found = row["posterior"]
    return ({k: native(v) for k, v in found.items()} if found else None), row["drift"]


def write_version(tx: Tx, tenant: str, known: datetime, row: dict[str, Any], *, previous: str | None) -> None:
    """Create a posterior version from its properties (None values left out), closing `previous` (a version id)."""
    tx.one(CREATE_PREFERENCE_VERSION, tenant=tenant, known=known, previous=previous,
           row={k: v for k, v in row.items() if v is not None})
