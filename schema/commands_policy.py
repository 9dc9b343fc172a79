"""Command models of the write policy (DESIGN §9, issue 27 item 1): set a tenant's policy, read the one in force,
list its versions."""

from __future__ import annotations

from pydantic import Field

from credo.schema.command_base import Command, Id, Int, Time
from credo.schema.policy import WritePolicy


class SetWritePolicy(Command):
    """Store a new version of the tenant's write policy: per kind an override of when / invalidate / visible,
    `earns: "never"` to give a kind no slot, and episodic TTLs per workflow."""

    policy: WritePolicy = Field(description='e.g. {"episodic": {"ttl": {"default": "P30D", "chat": "PT24H"}}, '
                                            '"semantic": {"visible": "logged"}}')


class WritePolicyQuery(Command):
    """The tenant's write policy in force, with its id and since when it is known ("default" if never set)."""

    known_at: Time | None = Field(default=None, description="as the store knew it then (default now)")


class WritePolicyVersionsQuery(Command):
    """The tenant's write policy versions, newest first, ending with DESIGN §9's defaults: who set each, when it was
    known, its plan per kind and what it changed; `after` continues after a version (a page's `next_after`)."""

    after: Id | None = Field(default=None, description="continue after this version (a page's `next_after`, a "
                                                       "policy id)")
    limit: Int | None = Field(default=None, ge=1, le=1_000, description="at most this many versions (default 100)")
