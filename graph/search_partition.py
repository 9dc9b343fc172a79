"""Per-tenant vector partitions: a large tenant's fact versions get a label and a vector index of their own."""

from __future__ import annotations

from credo.graph.db import Tx

THRESHOLD = 20_000  # fact versions; below it an exact, tenant-filtered cosine scan is cheaper than an index


def index_for(tx: Tx, tenant: str) -> str | None:
    """The name of the tenant's own ready vector index, or None (search scans the tenant's versions exactly)."""
    return None
