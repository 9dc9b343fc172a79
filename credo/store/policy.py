"""Store methods of the write policy: a tenant's stored, versioned override of DESIGN §9's defaults."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema import commands_policy as c
from credo.schema.commands import build
from credo.schema.policy import WritePolicy, WritePolicyVersion, WritePolicyVersions
from credo.services.core.context import Context
from credo.services.policy import policy as policy_service
from credo.services.policy import versions as versions_service


class PolicyMixin:
    """Write-policy half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def set_write_policy(self, policy: WritePolicy | dict[str, Any]) -> WritePolicyVersion:
        """Store a new version of the tenant's write policy (per kind: `earns: "never"`, when, invalidate, visible;
        episodic TTLs per workflow), in force from now; answers the stored version."""
        return policy_service.set_write_policy(self._ctx, build(c.SetWritePolicy, policy=policy))

    def write_policy(self, *, known_at: Any = None) -> WritePolicyVersion:
        """The tenant's write policy in force (as known at `known_at`, default now), with its id and known_from;
        "default" when it never set one."""
        return policy_service.write_policy(self._ctx, build(c.WritePolicyQuery, known_at=known_at))

    def write_policy_versions(self, *, after: str | None = None, limit: int | None = None) -> WritePolicyVersions:
        """The tenant's write policy versions, newest first, the defaults last: each one's id, known interval, who set
        it, its plan per kind and what it changed; `after=page.next_after` reads the next page."""
        cmd = build(c.WritePolicyVersionsQuery, after=after, limit=limit)
        return versions_service.write_policy_versions(self._ctx, cmd)


HANDLERS: dict[str, Callable[..., Any]] = {
    "set_write_policy": policy_service.set_write_policy, "write_policy": policy_service.write_policy,
    "write_policy_versions": versions_service.write_policy_versions,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
