"""Explicit lifecycle acts: deprecate a fact, quarantine a suspicious source's facts (or one fact), release them.

Each names a reason and an actor, goes through the one transition table (schema/lifecycle.py) as a state flag
(services/core/flags.py), is written to the audit ledger, and answers with its cascade report (what rested on a fact
that stopped being served goes stale). Release follows the table: quarantined -> candidate, so a released fact is
admitted again (admit) before it serves; it never jumps back to the served state it came from on its own.
A source's quarantine moves the facts it is evidence for that are served or candidates; facts already set aside
for another reason (stale, conflicted, deprecated, rejected, forgotten) are not served anyway and stay as they are.
"""

from __future__ import annotations

from credo.graph.core import flags as flag_repo
from credo.graph.core import ledger
from credo.graph.gate import sources as source_repo
from credo.graph.core.db import Tx
from credo.schema import commands_lifecycle as c
from credo.schema.errors import NotFound
from credo.schema.facts import Fact
from credo.schema.lifecycle import TRANSITIONS, State
from credo.services.core.context import Context
from credo.services.core.flags import flag_states
from credo.services.core.versions import the_current
from credo.services.core.unit_of_work import Write


def deprecate(ctx: Context, cmd: c.Deprecate) -> Fact:
    """Set a fact aside as deprecated (kept as history, not served), by the transition table."""
    return _move(ctx, "deprecate", State.DEPRECATED, source_id=None, fact_id=cmd.fact_id, reason=cmd.reason,
                 actor=cmd.actor)[0]


def quarantine(ctx: Context, cmd: c.Quarantine) -> list[Fact]:
    """Quarantine one fact, or every served or candidate fact a source is evidence for: not served, not deleted."""
    return _move(ctx, "quarantine", State.QUARANTINED, source_id=cmd.source_id, fact_id=cmd.fact_id,
                 reason=cmd.reason, actor=cmd.actor)


def release(ctx: Context, cmd: c.Release) -> list[Fact]:
    """Release quarantined facts (one, or a source's) back to candidate, as the transition table allows."""
    return _move(ctx, "release", State.CANDIDATE, source_id=cmd.source_id, fact_id=cmd.fact_id, reason=cmd.reason,
                 actor=cmd.actor)


def _move(ctx: Context, kind: str, target: State, *, source_id: str | None, fact_id: str | None, reason: str,
          actor: str) -> list[Fact]:
    def work(w: Write) -> list[Fact]:
        tx, known = w.tx, w.known
        versions = _targets(tx, ctx.tenant, kind, target, source_id=source_id, fact_id=fact_id)
        flag_states(w, [(v, target.value, None) for v in versions], kind=kind, actor=actor,
                    reason=reason)
        ledger.audit(tx, ctx.tenant, known, [(kind, v.fact_id, {"version_id": v.version_id, "from": v.state,
                                                                "to": target.value, "reason": reason,
                                                                "actor": actor, "source_id": source_id})
                                             for v in versions])
        return [v.model_copy(update={"state": target.value, "stale_cause": None}) for v in versions]

    return ctx.write(work)


def _targets(tx: Tx, tenant: str, kind: str, target: State, *, source_id: str | None,
             fact_id: str | None) -> list[Fact]:
    """The versions an act moves: the one current version of a fact (any state: the table decides), or a source's
    facts that the table lets move (release: the quarantined ones)."""
    if fact_id is not None:
        return [the_current(tx, tenant, fact_id)]
    assert source_id is not None
    if not source_repo.by_ids(tx, tenant, [source_id]):
        raise NotFound("source", source_id)
    found = flag_repo.by_source(tx, tenant, source_id)
    if kind == "release":
        return [v for v in found if v.state == State.QUARANTINED]
    return [v for v in found if target in TRANSITIONS[State(v.state)]]
