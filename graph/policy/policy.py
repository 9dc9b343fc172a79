"""A tenant's write policy in the graph: one :WritePolicy node per version (known_from, known_to), so a read at a
past known time is a window over versions, as for recipes; setting a policy closes the one in force."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native
from credo.schema.policy import WritePolicy, WritePolicyVersion

CREATE_WRITE_POLICY_VERSION = load("create_write_policy_version")
READ_WRITE_POLICY = load("read_write_policy")
READ_WRITE_POLICY_VERSION = load("read_write_policy_version")
READ_WRITE_POLICY_VERSIONS = load("read_write_policy_versions")


def version_from_row(row: dict[str, Any]) -> WritePolicyVersion:
    """A WritePolicyVersion from a map projection of a :WritePolicy node."""
    return WritePolicyVersion(policy_id=row["policy_id"], known_from=native(row["known_from"]),
                              known_to=native(row["known_to"]) if row.get("known_to") is not None else None,
                              policy=WritePolicy.model_validate_json(row["document"]))


def in_force(tx: Tx, tenant: str, known: datetime | None) -> WritePolicyVersion | None:
    """The tenant's policy version in force at `known` (None: now), or None when it set none by then."""
    row = tx.one(READ_WRITE_POLICY, tenant=tenant, known=known)
    return version_from_row(row["policy"]) if row else None


def version(tx: Tx, tenant: str, policy_id: str) -> dict[str, Any] | None:
    """The stored version `policy_id` of the tenant's policy as its row (`version_from_row` reads it; `versions`
    starts a page after it), or None."""
    row = tx.one(READ_WRITE_POLICY_VERSION, tenant=tenant, policy_id=policy_id)
    return row["policy"] if row else None


def versions(tx: Tx, tenant: str, *, after: dict[str, Any] | None, limit: int) -> list[dict[str, Any]]:
    """At most `limit` stored versions of the tenant's policy as rows, newest first, known before the version row
    `after` (None: from the newest). Its known_from goes back in the fixed UTC offset it was written in (`native`):
    the zone id the driver reads back sorts after it, so the page would start at `after` itself."""
    return [r["policy"] for r in tx.rows(READ_WRITE_POLICY_VERSIONS, tenant=tenant, limit=limit,
                                          after_from=None if after is None else native(after["known_from"]),
                                          after_id=None if after is None else after["policy_id"])]


def write_version(tx: Tx, tenant: str, known: datetime, policy_id: str, policy: WritePolicy,
                  actor: str | None) -> WritePolicyVersion:
    """Store a new policy version known from `known`, closing the one in force; answers it."""
    row = tx.one(CREATE_WRITE_POLICY_VERSION, tenant=tenant, known=known, policy_id=policy_id,
                 document=policy.model_dump_json(exclude_none=True), actor=actor)
    return version_from_row(row["policy"])
