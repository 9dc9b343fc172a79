"""A tenant's write policy: set a new version (an operator's decision; one ledger event) and read the one in force,
now or as of an earlier known time (DESIGN §9; the rule is services/policy/rules.py)."""

from __future__ import annotations

from credo.graph.core import ledger
from credo.graph.core.ledger import new_id
from credo.graph.policy import policy as policy_repo
from credo.schema import commands_policy as c
from credo.schema.policy import DEFAULT_VERSION, WritePolicyVersion
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write


def set_write_policy(ctx: Context, cmd: c.SetWritePolicy) -> WritePolicyVersion:
    """Store a new version of the tenant's write policy, in force from this write's known time; answers it."""

    def work(w: Write) -> WritePolicyVersion:
        stored = policy_repo.write_version(w.tx, ctx.tenant, w.known, new_id("wp"), cmd.policy, ctx.actor)
        ledger.audit(w.tx, ctx.tenant, w.known, [("set_write_policy", stored.policy_id, {
            "policy": cmd.policy.model_dump(mode="json", exclude_none=True)})])
        return stored

    return ctx.write(work)


def write_policy(ctx: Context, cmd: c.WritePolicyQuery) -> WritePolicyVersion:
    """The tenant's write policy in force at `known_at` (default now); "default" when it had set none by then."""
    known = None if cmd.known_at is None else ctx.known_point(cmd.known_at)
    return ctx.read(lambda tx: policy_repo.in_force(tx, ctx.tenant, known)) or DEFAULT_VERSION
