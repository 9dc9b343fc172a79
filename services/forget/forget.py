"""Forgetting one id (DESIGN.md §7): a fact (every version), a source (and the recipes it earned), an entity (and
the facts naming it), a summary or a recipe (services/forget/recipes.py). The content goes from every place; a
content-free tombstone stays until `purge` (forgotten -> deleted).

Rule for an entity: every fact naming it as subject or object (at any known time, through merges) is forgotten, then
its names and aliases; the facts go in batches through the same job as `forget_subject`.

Rule for the entities forgotten facts name: an entity that no remembered fact names any more (through merges) is
forgotten with them (its names and aliases go; it is listed in `forgotten`); one that another remembered fact names
stays, and the residue report lists it under `left_by_design`. Read receipts that served a forgotten version, or
whose question holds forgotten words, lose their question text (their links to the tombstoned versions stay).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph.core import clearance as clearance_repo
from credo.graph.forget import forget as repo
from credo.graph.core import ledger
from credo.graph.truth import summaries as summary_repo
from credo.graph.core.db import Tx
from credo.schema import commands_forget as cf
from credo.schema.errors import NotFound, TransitionRefused
from credo.schema.forget import ForgetResult, ResidueReport
from credo.schema.lifecycle import State, check_transition
from credo.services.forget import crypto_erase
from credo.services.forget import recipes as forget_recipes
from credo.services.forget import seal as forget_seal
from credo.services.core.clearance import purged_label
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.forget.rules import Probe, only_evidence, tombstone
from credo.services.forget.steps import (FORGOTTEN, capture, forget_facts, forget_summaries, probe_sealer, reach_entities,
                                         rebuild_after, recorded, scrub_copies, tombstone_event)
from credo.services.forget.scope import subject_job
from credo.services.forget.verify import kind_of, purged_report, verify

FORGOTTEN = State.FORGOTTEN.value


def forget(ctx: Context, cmd: cf.Forget, *, probes: dict[str, Probe] | None = None) -> ForgetResult:
    """Forget what `cmd.target_id` names; returns the ids forgotten, the residue report and the cascade. The
    tombstone names the acting principal (`ctx.actor`) and, apart, `cmd.actor`: who the caller said it acted for.
    `probes` is the handle's memory of captured content (kept until purge)."""
    target_id, reason, actor = cmd.target_id, cmd.reason, cmd.actor
    probes = probes if probes is not None else {}
    found = kind_of(ctx, target_id)
    kind = found["kind"]
    if kind == "entity":
        job = subject_job(ctx, entity_id=target_id, reason=reason, actor=actor, probes=probes)
        return ForgetResult(target_id=target_id, kind="entity", forgotten=job.forgotten, report=job.report)
    if kind == "summary":
        return forget_summaries(ctx, [target_id], reason, actor, probes)
    if kind == "recipe":
        return forget_recipes.forget_recipe(ctx, target_id, reason, actor, found["forgotten"], probes)
    target = found["fact_id"] if kind == "fact" else target_id
    probe = probes.setdefault(target, Probe(ids=[target], kind=kind))
    recipes: list[str] = []  # a source's: the recipes it earned go with it
    if kind == "fact":
        rows = ctx.read(lambda tx: capture(tx, ctx.tenant, [target], probe))
        if found["forgotten"]:
            raise TransitionRefused(target, FORGOTTEN, FORGOTTEN)
        sources: list[str] = []
    else:
        if found["forgotten"]:
            raise TransitionRefused(target, FORGOTTEN, FORGOTTEN)

        def read_source(tx: Tx) -> list[dict[str, Any]]:
            probe.add([t for t in summary_repo.source_texts(tx, ctx.tenant, [target]).values() if t])
            recipes[:] = forget_recipes.capture(tx, ctx.tenant, probe, source_ids=[target])
            return capture(tx, ctx.tenant, only_evidence(repo.source_dependents(tx, ctx.tenant, target)), probe)

        rows = ctx.read(read_source)
        sources = [target]

    rebuild: list[str] = []
    save_probe = probe_sealer(ctx, target)
    by = ctx.actor

    def work(w: Write) -> ForgetResult:
        tx, known = w.tx, w.known
        entities = list(reach_entities(tx, ctx.tenant, [r["fact_id"] for r in rows], probe))
        why, behalf = recorded(reason, actor, probe)
        repo.scrub_sources(tx, ctx.tenant, sources, known, by, why, behalf)
        ids = forget_facts(w, rows, by=by, reason=why, strict=kind == "fact")
        repo.scrub_entities(tx, ctx.tenant, entities, known, by, why, behalf)
        forget_recipes.scrub(tx, ctx.tenant, known, probe, recipes, by=by, reason=why, behalf=behalf, copies=False)
        rebuild[:] = scrub_copies(tx, ctx.tenant, known, probe, fact_ids=ids, source_ids=sources, by=by,
                                  behalf=behalf, reason=why)  # the recipes' text too: it is in the probe
        tombstone_event(tx, ctx.tenant, known, target, kind, behalf, why, ids + entities + recipes)
        probe.facts = [i for i in ids if i != target]
        probe.tombstone = tombstone(known, by, behalf, why)
        save_probe(tx, probe)  # held until purge: any handle sharing the key store can probe with it
        return ForgetResult(target_id=target, kind=kind, forgotten=sources + ids + entities + recipes,
                            report=ResidueReport(target_id=target))

    done = ctx.write(work)
    others = set(sources) | set(probe.entities) | set(recipes)
    probe.add_keys(crypto_erase.erase(ctx, fact_ids=[i for i in done.forgotten if i not in others],
                                      source_ids=sources))
    rebuild_after(ctx, rebuild)
    report = verify(ctx, target_id=target, kind=kind, probe=probe, extra_facts=probe.facts)
    return done.model_copy(update={"report": report})


def _iso(at: object) -> object:
    return at.isoformat() if isinstance(at, datetime) else at


def purge(ctx: Context, cmd: cf.Purge, *, probes: dict[str, Probe] | None = None) -> ResidueReport:
    """forgotten -> deleted: remove the tombstoned nodes themselves (and the entities forgotten with them that no fact
    names any more); refused unless forgotten first. An id already purged answers its report again."""
    target_id, probes = cmd.target_id, probes if probes is not None else {}
    try:
        found = kind_of(ctx, target_id)
    except NotFound:
        report = purged_report(ctx, target_id=target_id, probe=probes.get(target_id))
        if target_id in probes:  # purged along with another target (an entity with its facts): this handle saw it
            probes[target_id].purged_at = probes[target_id].purged_at or report.purged_at
        return report
    kind = found["kind"]
    target = found["fact_id"] if kind == "fact" else target_id
    if not found["forgotten"]:
        check_transition(target, State.ACTIVE.value, State.DELETED.value)  # raises: only forgotten may be deleted
    check_transition(target, FORGOTTEN, State.DELETED.value)
    ids = {"fact": "fact_ids", "source": "source_ids", "entity": "entity_ids", "summary": "summary_ids",
           "recipe": "recipe_ids"}[kind]
    probe = probes.get(target)  # this handle's capture, if any (the stored one goes with the purge)
    tomb = found["tombstone"] or (probe.tombstone if probe else None) or {}
    mark = {"forgotten_at": _iso(tomb.get("forgotten_at")), "forgotten_by": tomb.get("by"),
            "forgotten_on_behalf_of": tomb.get("on_behalf_of"), "reason": tomb.get("reason")}

    deleted: list[str] = [target]

    def work(w: Write) -> datetime:
        tx, known = w.tx, w.known
        family = repo.entity_family(tx, ctx.tenant, target) if kind == "entity" else [target]
        # the tombstone keeps the label of what it stood for: a caller who could not have seen it is told nothing
        label = purged_label(clearance_repo.labels(tx, ctx.tenant, target))
        stored = repo.read_probe(tx, ctx.tenant, target) or {}
        along = list(dict.fromkeys([*(probe.entities if probe else []), *(stored.get("entities") or [])]))
        gone = repo.purge(tx, ctx.tenant, **{ids: family}, with_entities=along)
        deleted[1:] = [e["id"] for e in gone]
        # the sealed copies go with the tombstones (their keys just after): the target's, and those of entities
        # forgotten on their own and deleted with it
        repo.delete_probes(tx, ctx.tenant, deleted)
        # one purge event per id deleted: the tombstone a purged id still answers with (content-free)
        ledger.audit(tx, ctx.tenant, known, [("purge", i, {"kind": kind, **mark, "sensitivity": label})
                                             for i in family] + [
            ("purge", e["id"], {"kind": "entity", "with": target, "forgotten_at": _iso(e["at"]), "forgotten_by": e["by"],
                                "forgotten_on_behalf_of": e["behalf"], "reason": e["reason"],
                                "sensitivity": label}) for e in gone])
        return known

    at = ctx.write(work)
    forget_seal.destroy(ctx.keys, ctx.tenant, deleted)
    if probe is not None:
        probe.purged_at = at
        probe.tombstone = probe.tombstone or found["tombstone"]
    for other in deleted[1:]:
        if other in probes:
            probes[other].purged_at = probes[other].purged_at or at
    return purged_report(ctx, target_id=target, probe=probe)
