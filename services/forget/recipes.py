"""Forgetting reaches recipes (procedural memory, DESIGN.md §7 and §9): a recipe's versions hold text (its task
shape, its shape key, its steps) and name the source it was earned by (`because`).

Rules: forgetting a recipe by its id scrubs every version; forgetting the source a recipe was earned by forgets the
recipe too (its evidence is gone: a recipe never outlives its reason); a tenant-wide forget scrubs every recipe. A
scrubbed version keeps a content-free tombstone (its ids, tenant, `because`, usage record, forgotten_at/by/reason),
so it is never served (the reads look recipes up by shape key, which is gone, and skip forgotten versions) and a read
at an earlier known time finds no content. Copies of the text elsewhere (a ledger detail naming the shape key) go
with the free-text scrub of `scrub_copies`, as for facts.
"""

from __future__ import annotations

from datetime import datetime

from credo.graph.core.db import Tx
from credo.graph.forget import recipes as recipe_repo
from credo.schema.errors import TransitionRefused
from credo.schema.forget import ForgetResult
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.forget.rules import Probe, tombstone
from credo.services.forget.steps import FORGOTTEN, probe_sealer, rebuild_after, recorded, scrub_copies, tombstone_event
from credo.services.forget.verify import verify


def capture(tx: Tx, tenant: str, probe: Probe, *, recipe_ids: list[str] = (),
            source_ids: list[str] = ()) -> list[str]:
    """Step: read the text of the recipes named, and of those earned by the sources named, into `probe` (so the
    reason is checked against it, the copies are scrubbed and the report probes for it); returns their ids."""
    found = recipe_repo.texts(tx, tenant, recipe_ids=recipe_ids, source_ids=source_ids)
    probe.add([t for texts in found.values() for t in texts])
    return list(found)


def scrub(tx: Tx, tenant: str, known: datetime, probe: Probe, recipe_ids: list[str], *, by: str, reason: str,
          behalf: str | None, copies: bool = True) -> list[str]:
    """Step: scrub every version of the recipes, then (with `copies`) every copy of their text `probe` holds;
    returns the summaries to rebuild."""
    if not recipe_ids:
        return []
    recipe_repo.scrub(tx, tenant, recipe_ids, known, by, reason, behalf)
    if not copies or not probe.texts:
        return []
    return scrub_copies(tx, tenant, known, probe, fact_ids=[], source_ids=[], by=by, behalf=behalf, reason=reason)


def forget_recipe(ctx: Context, recipe_id: str, reason: str, actor: str, forgotten: bool,
                  probes: dict[str, Probe]) -> ForgetResult:
    """Forget one recipe (every version) and verify it; TransitionRefused when it was forgotten already."""
    if forgotten:
        raise TransitionRefused(recipe_id, FORGOTTEN, FORGOTTEN)
    probe = probes.setdefault(recipe_id, Probe(ids=[recipe_id], kind="recipe"))
    ctx.read(lambda tx: capture(tx, ctx.tenant, probe, recipe_ids=[recipe_id]))
    save_probe = probe_sealer(ctx, recipe_id)
    by, rebuild = ctx.actor, []

    def work(w: Write) -> None:
        tx, known = w.tx, w.known
        why, behalf = recorded(reason, actor, probe)
        rebuild[:] = scrub(tx, ctx.tenant, known, probe, [recipe_id], by=by, reason=why, behalf=behalf)
        tombstone_event(tx, ctx.tenant, known, recipe_id, "recipe", behalf, why, [recipe_id])
        probe.tombstone = tombstone(known, by, behalf, why)
        save_probe(tx, probe)  # held until purge: any handle sharing the key store can probe with it

    ctx.write(work)
    rebuild_after(ctx, rebuild)
    report = verify(ctx, target_id=recipe_id, kind="recipe", probe=probe)
    return ForgetResult(target_id=recipe_id, kind="recipe", forgotten=[recipe_id], report=report)
