"""Scope-wide forgetting (issue 12 item 3): a subject or a whole tenant, in batches, as a persisted :ForgetJob.

Each batch is one write transaction that also advances the job's cursor (`phase`, `done`), so a crash loses at most
the batch in flight (rolled back) and `resume` carries on where the last committed batch ended. The content of a
batch is read just before its write; the first batches' content (up to 50 texts) becomes the final probes' probe,
stored (sealed, services/forget/seal.py) after its batch as a :ForgetProbe, so a resumed job still probes with it. A
tenant-wide job deletes it (and destroys its key) when complete; a subject's stays until the entity is purged. The
entities a subject's facts name that no remembered fact names any more go with them (services/forget/forget.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from credo.graph.facts import entities as entity_repo
from credo.graph.forget import forget as repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema import commands_forget as cf
from credo.schema.errors import NotFound
from credo.schema.forget import ForgetJob, ResidueReport
from credo.services.forget import crypto_erase
from credo.services.forget import recipes as forget_recipes
from credo.services.forget import seal as forget_seal
from credo.services.core.clearance import check_target, everything
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.forget.steps import (capture, forget_facts, forget_summaries, probe_sealer, reach_entities, rebuild_after,
                                         recorded, scrub_copies, tombstone_event)
from credo.services.forget.rules import SUMMARY_TEXT, Probe, tombstone, without_forgotten
from credo.services.forget.verify import stored_probe, verify
from credo.services.truth.rules import text_hash

Progress = Callable[[ForgetJob], None]
PHASES = {"subject": ["facts", "entity", "verify"],
          "tenant": ["facts", "recipes", "sources", "summaries", "entities", "verify"]}


class SubjectJob:
    """What forgetting a subject returned: the ids forgotten and the residue report."""

    def __init__(self, job: ForgetJob, forgotten: list[str]) -> None:
        self.job, self.forgotten, self.report = job, forgotten, job.report or ResidueReport(target_id=job.target or "")


def _quiet(_job: ForgetJob) -> None:
    return None


def start(ctx: Context, *, scope: str, target: str | None, reason: str, actor: str, batch_size: int) -> ForgetJob:
    """The running job for this scope and target (resumed), or a new persisted one: started by the acting principal
    (`ctx.actor`, its tombstones' `by`) on behalf of `actor` (who the caller said it acted for)."""
    for job in ctx.read(lambda tx: repo.jobs(tx, ctx.tenant)):
        if job.scope == scope and job.target == target:
            return job
    now = ctx.now()
    job = ForgetJob(job_id=new_id("fj"), scope=scope, target=target, reason=reason, actor=ctx.actor,
                    on_behalf_of=actor, state="running",
                    phase="facts", batch_size=batch_size, started_at=now, updated_at=now)
    ctx.db.write(lambda tx: repo.save_job(tx, ctx.tenant, job))
    return job


def _advance(job: ForgetJob, ctx: Context, **changes: object) -> ForgetJob:
    return job.model_copy(update={**changes, "updated_at": ctx.now()})


def _event(tx: Tx, ctx: Context, job: ForgetJob, known: datetime, ids: list[str]) -> None:
    """The ledger's forget event of one batch (the acting key is the transaction's; the claimed actor apart)."""
    tombstone_event(tx, ctx.tenant, known, job.target or ctx.tenant, "entity" if job.scope == "subject" else "tenant",
                     job.on_behalf_of, job.reason, ids)


def _facts_batch(ctx: Context, job: ForgetJob, probe: Probe, entity_ids: list[str], forgotten: list[str]) -> ForgetJob:
    """One batch of the facts phase; the job's cursor moves in the same transaction. Returns the job (phase moved on
    when nothing is left)."""
    def pick(tx: Tx) -> list[dict]:
        ids = (repo.facts_about(tx, ctx.tenant, entity_ids, job.batch_size) if job.scope == "subject"
               else repo.tenant_batch(tx, ctx.tenant, "fact", job.batch_size))
        return capture(tx, ctx.tenant, ids, probe if keep else Probe())

    keep = len(probe.texts) < 50  # enough content for the final probes; the graph checks cover the rest
    rows = ctx.read(pick)
    if not rows:
        return _advance(job, ctx, phase=PHASES[job.scope][1])
    rebuild: list[str] = []
    save_probe = probe_sealer(ctx, probe_key(ctx, job)) if keep or job.scope == "subject" else None

    def work(w: Write) -> ForgetJob:
        tx, known = w.tx, w.known
        batch_probe = Probe()
        for r in rows:
            batch_probe.add(r["statements"] + r["quotes"] + r["literals"])
        found: dict[str, list[str]] = {}
        if job.scope == "subject":  # a tenant-wide forget forgets every entity in its own phase
            found = reach_entities(tx, ctx.tenant, [r["fact_id"] for r in rows], batch_probe, spare=entity_ids)
        entities = list(found)
        why, behalf = recorded(job.reason, job.on_behalf_of, batch_probe)  # a reason naming this batch's content
        ids = forget_facts(w, rows, by=job.actor, reason=why, strict=False)
        repo.scrub_entities(tx, ctx.tenant, entities, known, job.actor, why, behalf)
        if job.scope == "subject":
            probe.add_names([n for names in found.values() for n in names])
            probe.add(batch_probe.texts if keep else [])
            probe.entities += [e for e in entities if e not in probe.entities]
        rebuild[:] = scrub_copies(tx, ctx.tenant, known, batch_probe, fact_ids=ids, source_ids=[], by=job.actor,
                                  behalf=behalf, reason=why)
        moved = _advance(job, ctx, done=job.done + len(ids), reason=why, on_behalf_of=behalf)
        repo.save_job(tx, ctx.tenant, moved)
        _event(tx, ctx, moved, known, ids + entities)
        probe.tombstone = probe.tombstone or tombstone(known, job.actor, behalf, why)
        if save_probe is not None:  # the probe grew: stored with the batch, so a resumed job or another handle uses it
            save_probe(tx, probe)
        forgotten.extend(ids + entities)
        return moved

    moved = ctx.write(work)
    probe.add_keys(crypto_erase.erase(ctx, fact_ids=[r["fact_id"] for r in rows], source_ids=[]))
    if job.scope == "subject":  # a tenant-wide forget forgets the summaries themselves next
        rebuild_after(ctx, rebuild)
    return moved


def _ids_batch(ctx: Context, job: ForgetJob, kind: str, forgotten: list[str], probe: Probe) -> ForgetJob:
    """One batch of recipes, sources, summaries or entities of a tenant-wide forget."""
    ids = ctx.read(lambda tx: repo.tenant_batch(tx, ctx.tenant, kind, job.batch_size))
    phases = PHASES[job.scope]
    if not ids:
        return _advance(job, ctx, phase=phases[phases.index(job.phase) + 1])
    if kind == "summary":
        forget_summaries(ctx, ids, job.reason, job.on_behalf_of, {}, by=job.actor)
        moved = _advance(job, ctx, done=job.done + len(ids))
        ctx.db.write(lambda tx: repo.save_job(tx, ctx.tenant, moved))
        return moved

    def work(w: Write) -> ForgetJob:
        tx, known = w.tx, w.known
        if kind == "source":
            repo.scrub_sources(tx, ctx.tenant, ids, known, job.actor, job.reason, job.on_behalf_of)
            repo.scrub_summaries(tx, [h["version_id"] for h in repo.summaries_holding(
                tx, ctx.tenant, fact_ids=[], source_ids=ids, texts=[])], SUMMARY_TEXT, text_hash(SUMMARY_TEXT), known,
                job.actor, job.reason, job.on_behalf_of)
        elif kind == "recipe":  # every version's text, and its copies (a ledger detail naming the shape key)
            texts = Probe()
            forget_recipes.capture(tx, ctx.tenant, texts, recipe_ids=ids)
            forget_recipes.scrub(tx, ctx.tenant, known, texts, ids, by=job.actor, reason=job.reason,
                                 behalf=job.on_behalf_of)
            if len(probe.texts) < 50:  # the final report probes for them too
                probe.add(texts.texts)
        else:
            repo.scrub_entities(tx, ctx.tenant, ids, known, job.actor, job.reason, job.on_behalf_of)
        _event(tx, ctx, job, known, ids)
        moved = _advance(job, ctx, done=job.done + len(ids))
        repo.save_job(tx, ctx.tenant, moved)
        return moved

    forgotten.extend(ids)
    moved = ctx.write(work)
    if kind == "source":
        probe.add_keys(crypto_erase.erase(ctx, fact_ids=[], source_ids=ids))
    return moved


def probe_key(ctx: Context, job: ForgetJob) -> str:
    """The id a scope-wide job's probe is stored under: the entity, or the tenant for a tenant-wide job."""
    return job.target or ctx.tenant


def run(ctx: Context, job: ForgetJob, *, progress: Progress = _quiet, probe: Probe | None = None) -> tuple[ForgetJob, list[str]]:
    """Drive a job to completion from its cursor; `progress` is called after every batch. A resumed job carries on
    with the probe its committed batches stored."""
    kind = "entity" if job.scope == "subject" else "tenant"
    if probe is None or not (probe.texts or probe.embeddings):
        stored = stored_probe(ctx, probe_key(ctx, job))
        probe = probe or Probe(ids=[probe_key(ctx, job)], kind=kind)
        if stored is not None:
            probe.add_names(stored.names)
            probe.add(stored.texts, stored.embeddings)
            probe.entities += [e for e in stored.entities if e not in probe.entities]
            probe.tombstone = probe.tombstone or stored.tombstone
    forgotten: list[str] = []
    family = ctx.read(lambda tx: repo.entity_family(tx, ctx.tenant, job.target)) if job.scope == "subject" else []
    while job.state == "running":
        if job.phase == "facts":
            job = _facts_batch(ctx, job, probe, family, forgotten)
        elif job.phase == "entity":
            save_names = probe_sealer(ctx, probe_key(ctx, job))

            def scrub(w: Write) -> ForgetJob:
                tx, known = w.tx, w.known
                named = Probe()  # the subject's own names: copies in summaries, receipts' questions, free text
                named.add_names(repo.entity_names(tx, ctx.tenant, family))
                probe.add_names(named.texts)
                probe.tombstone = probe.tombstone or tombstone(known, job.actor, job.on_behalf_of, job.reason)
                save_names(tx, probe)  # stored with its names: another handle's verify probes for them too
                scrub_copies(tx, ctx.tenant, known, named, fact_ids=[], source_ids=[], by=job.actor,
                             behalf=job.on_behalf_of, reason=job.reason)
                repo.scrub_entities(tx, ctx.tenant, family, known, job.actor, job.reason, job.on_behalf_of)
                _event(tx, ctx, job, known, family)
                moved = _advance(job, ctx, phase="verify")
                repo.save_job(tx, ctx.tenant, moved)
                return moved

            job = ctx.write(scrub)
            forgotten.append(job.target or "")
        elif job.phase in ("recipes", "sources", "summaries", "entities"):
            job = _ids_batch(ctx, job, job.phase[:-1] if job.phase != "entities" else "entity", forgotten, probe)
        else:
            probe.facts = []
            probe.add_keys(crypto_erase.sweep(ctx, [f"entity:{e}" for e in family] if job.scope == "subject" else None))
            report = verify(ctx, target_id=job.target or ctx.tenant, kind=kind, probe=probe)
            job = _advance(job, ctx, state="complete", report=report)
            done = job

            def finish(tx: Tx) -> None:
                repo.save_job(tx, ctx.tenant, done)
                if job.scope == "tenant":  # no purge follows a tenant-wide forget: its probe goes with the report
                    repo.delete_probes(tx, ctx.tenant, [probe_key(ctx, done)])

            ctx.db.write(finish)
            if job.scope == "tenant":
                forget_seal.destroy(ctx.keys, ctx.tenant, [probe_key(ctx, done)])
        progress(job)
    return job, forgotten


def forget_subject(ctx: Context, cmd: cf.ForgetSubject, *, probes: dict[str, Probe] | None = None,
                   progress: Progress = _quiet) -> ForgetJob:
    """Forget an entity (an id `e_…` or a name) and every fact naming it, in batches, resumably; `progress` is
    called after every batch, `probes` is the handle's memory of captured content (kept until purge)."""
    by_id = cmd.entity.startswith("e_")
    return subject_job(ctx, entity_id=cmd.entity if by_id else None, entity=None if by_id else cmd.entity,
                       reason=cmd.reason, actor=cmd.actor, batch_size=cmd.batch_size, probes=probes,
                       progress=progress).job


def subject_job(ctx: Context, *, entity_id: str | None = None, entity: str | None = None, reason: str, actor: str,
                batch_size: int = 500, probes: dict[str, Probe] | None = None,
                progress: Progress = _quiet) -> SubjectJob:
    """The subject's job (by id or name), run to completion: the job, and the ids it forgot (forgetting an entity by
    id, services/forget/forget.py, reports them)."""
    if entity_id is None:
        found = ctx.read(lambda tx: entity_repo.find(tx, ctx.tenant, entity or ""))
        if found is None:
            raise NotFound("entity", entity or "")
        entity_id = found.entity_id
    elif ctx.read(lambda tx: repo.target(tx, ctx.tenant, entity_id)) is None:
        raise NotFound("entity", entity_id)
    # it reaches every fact naming the entity: one above the caller's clearance makes it as if missing, named as the
    # caller named it (a name answers exactly as a name no entity has, never with the entity's id)
    ctx.read(lambda tx: check_target(tx, ctx.tenant, entity_id, "entity", name=entity))
    # a reason or a claimed actor naming the subject would keep its name in every tombstone: recorded without it
    names = ctx.read(lambda tx: repo.entity_names(tx, ctx.tenant, repo.entity_family(tx, ctx.tenant, entity_id)))
    reason, actor = without_forgotten(reason, names) or reason, without_forgotten(actor, names) or actor
    job = start(ctx, scope="subject", target=entity_id, reason=reason, actor=actor, batch_size=batch_size)
    probe = (probes if probes is not None else {}).setdefault(entity_id, Probe(ids=[entity_id], kind="entity"))
    job, forgotten = run(ctx, job, progress=progress, probe=probe)
    return SubjectJob(job, forgotten[-1:] + forgotten[:-1] if forgotten else [entity_id])


def forget_tenant(ctx: Context, cmd: cf.ForgetTenant, *, progress: Progress = _quiet) -> ForgetJob:
    """Forget everything the tenant holds, in batches; a crashed run resumes on the next call."""
    everything(ctx.clearance, "forget the tenant")
    job = start(ctx, scope="tenant", target=None, reason=cmd.reason, actor=cmd.actor, batch_size=cmd.batch_size)
    return run(ctx, job, progress=progress)[0]


def resume(ctx: Context, cmd: cf.ForgetResume, *, progress: Progress = _quiet) -> list[ForgetJob]:
    """Finish every forget job of the tenant that a crash left running."""
    everything(ctx.clearance, "resume forget jobs")
    return [run(ctx, job, progress=progress)[0] for job in ctx.read(lambda tx: repo.jobs(tx, ctx.tenant))]
