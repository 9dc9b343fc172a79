"""`maintain`: the scheduled, idempotent sweep.

1. Turn into `stale` what rests on premises whose valid time has ended by now. Reads already stop serving such
   dependents from the premise's end on (services/core/support.py); this makes it an explicit state change with its
   cause, so `stale()` lists them for re-verification.
2. Move episodic and semantic memories between tiers by the table in services/recall/tier_rules.py (at most one move
   each per sweep).
3. Forget episodic memories older than the tenant's TTL (TTL roll-off is forgetting): the due ids are recorded on
   their usage, in the ledger and in the report, then each is forgotten and its residue report returned; then every
   episode past its workflow's TTL rolls off the same way (services/episodic/roll_off.py).

Run it on a schedule (`credo maintain`); its now is the write's known time (the store's clock, injectable).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from credo.graph.truth import dependencies as dep_repo
from credo.graph.core import ledger
from credo.graph.recall import usage as usage_repo
from credo.graph.core.db import Tx
from credo.schema import commands as c
from credo.schema import commands_forget as cf
from credo.schema.errors import InvalidInput
from credo.schema.lifecycle import SERVED_VALUES
from credo.schema.utility import MaintainReport, TierMove
from credo.services.truth.cascade import cascade
from credo.services.forget import forget as forget_service
from credo.services.episodic import roll_off as episodic_roll_off
from credo.services.core.context import Context
from credo.services.recall.tier_rules import DEFAULT_POLICY, KINDS, TierPolicy, next_tier, ttl_due
from credo.services.core.unit_of_work import Write


def maintain(ctx: Context, cmd: c.Maintain, *, policy: TierPolicy = DEFAULT_POLICY) -> MaintainReport:
    """Run the sweep at the current time; `episodic_ttl_days` first sets the tenant's TTL (0: none)."""
    episodic_ttl_days = cmd.episodic_ttl_days
    if episodic_ttl_days is not None and episodic_ttl_days < 0:
        raise InvalidInput("episodic_ttl_days", "must be 0 (no roll-off) or a number of days")

    def work(w: Write) -> MaintainReport:
        tx, known = w.tx, w.known
        ended = dep_repo.ended_premises(tx, ctx.tenant, known, list(SERVED_VALUES))
        # the premise is still believed (its claim about the past holds); what ended is its support for now
        w.changes.facts.extend((p, f"valid time ended at {p.valid_to.isoformat()}", None)
                               for p in ended if p.valid_to is not None)
        report = cascade(w)
        if report is not None and report.facts:
            ledger.audit(tx, ctx.tenant, known, [("maintain", ctx.tenant, {"premises": [p.fact_id for p in ended]})])
        if episodic_ttl_days is not None:
            usage_repo.set_episodic_ttl(tx, ctx.tenant, known, episodic_ttl_days)
        moves, due = sweep_tiers(tx, ctx.tenant, known, policy)
        base = report.model_dump() if report is not None else {"at": known}
        return MaintainReport(**base, tier_moves=moves, ttl_due=due)

    report = ctx.write(work)
    if report.ttl_due:  # TTL roll-off is forgetting (DESIGN §9), each verified by its residue report
        rolled = [forget_service.forget(ctx, cf.Forget(target_id=fact_id, reason="episodic TTL roll-off",
                                                       actor="maintain")).report for fact_id in report.ttl_due]
        report = report.model_copy(update={"rolled_off": rolled})
    # and every episode past its workflow's TTL (services/episodic/roll_off.py), each verified the same way
    expired = [r.report for r in episodic_roll_off.expire(ctx, now=report.at).forgotten]
    if expired:
        report = report.model_copy(update={"rolled_off": [*report.rolled_off, *expired]})
    return report


def sweep_tiers(tx: Tx, tenant: str, known: datetime, policy: TierPolicy) -> tuple[list[TierMove], list[str]]:
    """Inside a write: one tier move at most per memory, and the episodic memories due by TTL (all still due)."""
    days = usage_repo.episodic_ttl_days(tx, tenant)
    ttl = timedelta(days=days) if days else None
    rows: list[dict[str, Any]] = []
    moves: list[TierMove] = []
    due: list[str] = []
    newly_due: list[str] = []
    for memory in usage_repo.memories(tx, tenant, sorted(KINDS)):
        move = next_tier(memory, known, policy)
        is_due = ttl_due(memory.kind, memory.state, memory.created, known, ttl)
        if is_due:
            due.append(memory.fact_id)
        if move is None and memory.placed and (not is_due or memory.ttl_due_at is not None):
            continue
        tier, since = (move[0], known) if move else (memory.tier, memory.tier_since)
        if move:
            moves.append(TierMove(fact_id=memory.fact_id, from_tier=memory.tier, to_tier=tier, rule=move[1]))
        if is_due and memory.ttl_due_at is None:
            newly_due.append(memory.fact_id)
        rows.append({"fact_id": memory.fact_id, "tier": tier.value, "tier_since": since,
                     "ttl_due_at": memory.ttl_due_at or (known if is_due else None)})
    usage_repo.update(tx, tenant, rows)
    events: list[tuple[str, str | None, dict[str, Any]]] = []
    if moves:
        events.append(("tier_sweep", tenant, {"moves": [m.model_dump(mode="json") for m in moves]}))
    if newly_due:
        events.append(("ttl_due", tenant, {"facts": newly_due, "ttl_days": days}))
    ledger.audit(tx, tenant, known, events)
    return moves, due
