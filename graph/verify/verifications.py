"""Recorded verdicts in the graph: one :Verification per verdict, linked from the fact version it judges by
VERIFIED_BY. `why` reads the latest one of each version through `latest`; the context package reads it with its
sources (graph/recall/context_reads.py `sources`, one query) and turns it into a model with `verified_from_row`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx, cipher_of
from credo.graph.core.records import FAR_FUTURE, native
from credo.schema.errors import NotFound
from credo.schema.verify import VerifiedBy

CREATE_VERIFICATION = load("create_verification")
READ_VERIFICATIONS = load("read_verifications")


def verified_from_row(row: dict[str, Any]) -> VerifiedBy:
    """A VerifiedBy model from a map projection of a :Verification node."""
    return VerifiedBy(**{k: native(v) for k, v in row.items() if v is not None and k in VerifiedBy.model_fields})


def record(tx: Tx, tenant: str, known: datetime, row: dict[str, Any], *, subject_id: str) -> VerifiedBy:
    """Record a verdict on a version the caller may see (NotFound otherwise); the version itself is unchanged. In
    crypto-erasure mode its reason is sealed here under the key of the judged fact's subject (`subject_id`)."""
    stored = {k: v for k, v in row.items() if v is not None}
    cipher = cipher_of(tx)
    found = tx.one(CREATE_VERIFICATION, tenant=tenant, version_id=row["version_id"], known=known,
                   row=cipher.seal_verdict(tenant, stored, subject_id) if cipher is not None else stored)
    if found is None:
        raise NotFound("fact version", row["version_id"])
    return verified_from_row({**row, "known_from": known})


def latest(tx: Tx, tenant: str, version_ids: list[str], known_at: datetime | None = None) -> dict[str, VerifiedBy]:
    """The latest verdict of each version (as known at `known_at`, default now) the caller may see."""
    if not version_ids:
        return {}
    rows = tx.rows(READ_VERIFICATIONS, tenant=tenant, version_ids=version_ids, known_at=known_at or FAR_FUTURE)
    return {r["version_id"]: verified_from_row(r["verification"]) for r in rows}
