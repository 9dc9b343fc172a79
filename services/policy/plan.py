"""`should_write`: the plan of one write under the tenant's policy in force, read once per write transaction; and
`ttl_for`, an episode's TTL for a workflow as of now.

Every write path calls `admitted(w, candidate, kind)` (or `should_write` and refuses on None itself) inside its own
transaction: the first call reads the tenant's policy (one index seek, cypher/policy/read_write_policy.cypher) and
keeps it on the Write (`w.policy`) with the plans drawn from it, so a batch of a thousand rows reads it once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from credo.graph.policy import policy as policy_repo
from credo.schema.errors import InvalidInput
from credo.schema.policy import DEFAULT_VERSION, WritePlan, WritePolicyVersion
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.policy import rules


@dataclass
class InForce:
    """The policy a write runs under, and the plans already drawn from it (by kind, workflow, user-facing)."""

    version: WritePolicyVersion
    plans: dict[tuple[str, str, bool, str], WritePlan | None] = field(default_factory=dict)
    texts: dict[int, str] = field(default_factory=dict)  # a plan's compact JSON, by the id of a plan in `plans`


def in_force(w: Write) -> InForce:
    """The tenant's policy for this write, read on first use and kept on the Write."""
    if w.policy is None:
        w.policy = InForce(policy_repo.in_force(w.tx, w.tenant, None) or DEFAULT_VERSION)
    return w.policy


def should_write(candidate: Any, kind: str, ctx: Write, writer: str = "gate") -> WritePlan | None:
    """The plan for writing `candidate` as `kind` in the write `ctx` by `writer` ("gate": an agent on someone's
    word; "author": a key holder's own write; rules.WRITERS), under the tenant's policy in force; None when that kind
    earns no slot."""
    force = in_force(ctx)
    key = (kind, rules.workflow_of(candidate), bool(rules.field_of(candidate, "user_facing")), writer)
    if key not in force.plans:
        force.plans[key] = rules.plan(candidate, kind, force.version, writer)
    return force.plans[key]


def admitted(w: Write, candidate: Any, kind: str, writer: str = "gate") -> WritePlan:
    """The plan for `candidate`; a kind the policy gives no slot is refused, naming the kind and the policy."""
    found = should_write(candidate, kind, w, writer)
    if found is None:
        policy_id = in_force(w).version.policy_id
        raise InvalidInput("kind", f"the write policy {policy_id!r} gives {kind} memory no slot (earns: never); "
                                   "nothing was written")
    return found


def stamp(w: Write, candidate: Any, kind: str, writer: str = "gate") -> str:
    """The admitted plan of `candidate` as the compact JSON its new version stores (`write_plan`); refused like
    `admitted`. Drawn once per (kind, workflow, user-facing, writer) in a write, so a batch pays one dump."""
    found = admitted(w, candidate, kind, writer)
    texts = in_force(w).texts
    text = texts.get(id(found))
    if text is None:
        text = texts[id(found)] = found.compact()
    return text


def ttl_for(ctx: Context, workflow: str) -> timedelta:
    """The tenant's episodic TTL for `workflow` as of now, falling back to its "default" entry."""
    version = ctx.read(lambda tx: policy_repo.in_force(tx, ctx.tenant, None)) or DEFAULT_VERSION
    return rules.ttl(version, workflow)
