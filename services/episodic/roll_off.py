"""`roll_off`: episodes past their workflow's TTL are forgotten (DESIGN §9: roll-off is forgetting, verified).

Each expired episode goes through `forget` itself (services/forget): the same tombstone, the same scrub of every
index and copy, the same ledger event and the same residue report as a forget of that id, so `verify_forgotten` on
it reports complete when nothing is left. An episode's age is measured from when it happened (`valid_from`), or, for
an undated one, from when the store first knew it (the `known_from` of its first version); its TTL is its workflow's
(`scope["workflow"]`, "default" without one: services/episodic/rules.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph.episodic import episodes as episode_repo
from credo.schema import commands_episodic as ce
from credo.schema import commands_forget as cf
from credo.schema.episodic import RollOff
from credo.schema.errors import InvalidInput, NotFound, TransitionRefused
from credo.schema.facts import STATE_VALUES
from credo.schema.lifecycle import State
from credo.services.core.context import Context
from credo.services.episodic.rules import due, workflow_of
from credo.services.policy.plan import ttl_for
from credo.services.forget import forget as forget_service
from credo.services.forget import verify as verify_service

ROLLING = sorted(STATE_VALUES - {State.FORGOTTEN.value, State.DELETED.value})
ACTOR = "episodic roll-off"


def roll_off(ctx: Context, cmd: ce.RollOffEpisodes, *, probes: dict[str, Any] | None = None) -> RollOff:
    """Forget every episode the caller may see that is older than its workflow's TTL at `now` (default: the
    store's now; a later one is refused, so no caller forgets an episode before its TTL); returns one forget result,
    with its residue report, per episode forgotten."""
    clock = ctx.now()
    if cmd.now is not None and cmd.now.at > clock:
        raise InvalidInput("now", f"must not be later than the store's clock ({clock.isoformat()}): a roll-off at a "
                                  "future instant would forget episodes before their TTL; omit it to use the "
                                  "store's now")
    return expire(ctx, now=clock if cmd.now is None else cmd.now.at, probes=probes)


def expire(ctx: Context, *, now: datetime, probes: dict[str, Any] | None = None) -> RollOff:
    """The roll-off at `now` (also run by `maintain`)."""
    probes = probes if probes is not None else {}  # the content each forget captured, to verify with
    aging = ctx.read(lambda tx: episode_repo.aging(tx, ctx.tenant, ROLLING))
    ttls = {}
    results = []
    for episode in aging:
        workflow = workflow_of(episode.scope)
        ttl = ttls.setdefault(workflow, ttl_for(ctx, workflow))
        if not due(episode.valid_from, episode.known_from, ttl, now):
            continue
        cmd = cf.Forget(target_id=episode.fact_id, reason=f"episodic TTL roll-off ({workflow}: {ttl})", actor=ACTOR)
        try:
            results.append(forget_service.forget(ctx, cmd, probes=probes))
        except (NotFound, TransitionRefused):  # forgotten meanwhile (with its entity, or by another forget)
            continue
    # episodes are append-only, so two may say the same words: one forgotten while its twin was still held was
    # reported with the twin as residue; once all are forgotten each is verified again (verify_forgotten)
    results = [r if r.report.complete else r.model_copy(update={"report": verify_service.verify_forgotten(
        ctx, cf.VerifyForgotten(target_id=r.target_id), probes=probes)}) for r in results]
    return RollOff(at=now, ttls={w: t.total_seconds() / 3600 for w, t in ttls.items()}, forgotten=results)
