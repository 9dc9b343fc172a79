"""Forgetting one id (DESIGN.md §7): a fact (every version), a source, an entity (and the facts naming it) or a
summary. The content goes from every place; a content-free tombstone stays until `purge` (forgotten -> deleted).

Rule for an entity: every fact naming it as subject or object (at any known time, through merges) is forgotten, then
its names and aliases; the facts go in batches through the same job as `forget_subject`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph import clearance as clearance_repo
from credo.graph import facts as fact_repo
from credo.graph import forget as repo
from credo.graph import ledger
from credo.graph import summaries as summary_repo
from credo.graph.db import Tx
from credo.graph.ledger import new_id
from credo.schema.errors import NotFound, TransitionRefused
from credo.schema.facts import EndKind
from credo.schema.forget import ForgetResult, ResidueReport
from credo.schema.lifecycle import State, check_transition
from credo.services import crypto_erase
from credo.services.context import Context
from credo.services.forget_rules import SUMMARY_TEXT, Probe, ledger_subjects, only_evidence
from credo.services.forget_verify import verify
from credo.services.summarizers import ListSummarizer
from credo.services.tms_rules import text_hash
from credo.services.flags import flag_states
from credo.services.versions import changes

FORGOTTEN = State.FORGOTTEN.value


def kind_of(ctx: Context, target_id: str) -> dict[str, Any]:
    """What the id names in this tenant; NotFound otherwise (another tenant's ids too, and an id whose content is
    above the caller's clearance: a forget reaches all of it, services/clearance.py)."""
    def work(tx: Tx) -> dict[str, Any] | None:
        found = repo.target(tx, ctx.tenant, target_id)
        return None if found is None or clearance_repo.hidden(tx, ctx.tenant, target_id) else found

    found = ctx.read(work)
    if found is None:
        raise NotFound("forget target", target_id)
    return found


def capture(tx: Tx, tenant: str, fact_ids: list[str], probe: Probe) -> list[dict[str, Any]]:
    """Read the facts' content into `probe` (stored with the forget until purge) and return their current versions
    and sources."""
    rows = repo.probes(tx, tenant, fact_ids)
    for r in rows:
        probe.add(r["statements"] + r["quotes"] + r["literals"], r["embeddings"])
    return rows


def mark_forgotten(tx: Tx, tenant: str, known: datetime, version_ids: list[str], reason: str) -> None:
    """The one state change of forgetting: each current version is flagged forgotten (a FLAGGED edge, through the
    transition table); the cascade sees them retired like any belief change."""
    if not version_ids:
        return
    retired = fact_repo.versions_by_ids(tx, tenant, version_ids)
    # a flag like every state change (issue 9): the version history stays, the transition table is checked
    flag_states(tx, tenant, known, [(f, FORGOTTEN, None) for f in retired.values()], kind="forget",
                reason="forgotten", notify=False)
    # the cascade quotes a premise's statement in its causes: give it the tombstone, never the content
    changes(tx).facts.extend((f.model_copy(update={"statement": f"forgotten for {reason}"}), EndKind.FORGOTTEN.value,
                              "forgotten") for f in retired.values())


def forget_facts(tx: Tx, tenant: str, known: datetime, rows: list[dict[str, Any]], *, by: str, reason: str,
                 strict: bool) -> list[str]:
    """The state change of forgetting facts inside one write (transition check, flags); their content goes with
    `scrub_copies`, in the same write."""
    moving, ids = [], []
    for r in rows:
        for v in r["versions"]:
            if v["state"] == FORGOTTEN and not strict:
                continue
            check_transition(r["fact_id"], v["state"], FORGOTTEN)
            moving.append(v["version_id"])
        ids.append(r["fact_id"])
    mark_forgotten(tx, tenant, known, moving, reason)
    return ids


def scrub_copies(tx: Tx, tenant: str, known: datetime, probe: Probe, *, fact_ids: list[str], source_ids: list[str],
                 by: str, reason: str) -> list[str]:
    """The content of the facts' versions and of every copy (summaries, episodes, stale causes, ledger details of
    events about them), removed in one statement; returns the summaries to rebuild."""
    return repo.scrub_fact_copies(tx, tenant, fact_ids=fact_ids, source_ids=source_ids, texts=probe.texts,
                                  subject_ids=ledger_subjects(fact_ids, source_ids), known=known, by=by,
                                  reason=reason, cause=f"premise forgotten for {reason}",
                                  text_hash=text_hash(SUMMARY_TEXT),
                                  note={"redacted": "content removed by forget", "by": by})


def _tombstone_event(tx: Tx, tenant: str, known: datetime, target_id: str, kind: str, by: str, reason: str,
                     ids: list[str]) -> None:
    ledger.audit(tx, tenant, known, [("forget", target_id, {"kind": kind, "by": by, "reason": reason, "ids": ids})])


def rebuild_after(ctx: Context, summary_ids: list[str]) -> None:
    """Summaries that derived from forgotten content are rebuilt without it (or stay stale with the reason)."""
    from credo.services.summaries import rebuild

    for sid in summary_ids:
        rebuild(ctx, summary_id=sid, summarizer=ListSummarizer())


def forget(ctx: Context, *, target_id: str, reason: str, actor: str, probes: dict[str, Probe]) -> ForgetResult:
    """Forget what `target_id` names; returns the ids forgotten, the residue report and the cascade."""
    found = kind_of(ctx, target_id)
    kind = found["kind"]
    if kind == "entity":
        from credo.services.forget_scope import forget_subject

        job = forget_subject(ctx, entity_id=target_id, reason=reason, actor=actor, probes=probes)
        return ForgetResult(target_id=target_id, kind="entity", forgotten=job.forgotten, report=job.report)
    if kind == "summary":
        return _forget_summaries(ctx, [target_id], reason, actor, probes)
    target = found["fact_id"] if kind == "fact" else target_id
    probe = probes.setdefault(target, Probe(ids=[target], kind=kind))
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
            return capture(tx, ctx.tenant, only_evidence(repo.source_dependents(tx, ctx.tenant, target)), probe)

        rows = ctx.read(read_source)
        sources = [target]

    rebuild: list[str] = []

    def work(tx: Tx, known: datetime) -> ForgetResult:
        repo.scrub_sources(tx, ctx.tenant, sources, known, actor, reason)
        ids = forget_facts(tx, ctx.tenant, known, rows, by=actor, reason=reason, strict=kind == "fact")
        rebuild[:] = scrub_copies(tx, ctx.tenant, known, probe, fact_ids=ids, source_ids=sources, by=actor,
                                  reason=reason)
        _tombstone_event(tx, ctx.tenant, known, target, kind, actor, reason, ids)
        probe.facts = [i for i in ids if i != target]
        repo.save_probe(tx, ctx.tenant, probe.stored(target, with_texts=ctx.cipher is None))  # held until purge: any handle can probe with it
        return ForgetResult(target_id=target, kind=kind, forgotten=sources + ids, report=ResidueReport(target_id=target))

    done = ctx.write(work)
    probe.add_keys(crypto_erase.erase(ctx, fact_ids=[i for i in done.forgotten if i not in sources],
                                      source_ids=sources))
    rebuild_after(ctx, rebuild)
    report = verify(ctx, target_id=target, kind=kind, probe=probe, extra_facts=probe.facts)
    return done.model_copy(update={"report": report})


def _forget_summaries(ctx: Context, summary_ids: list[str], reason: str, actor: str,
                      probes: dict[str, Probe]) -> ForgetResult:
    def work(tx: Tx, known: datetime) -> None:
        states = repo.summary_states(tx, ctx.tenant, summary_ids)
        rows = []
        for sid, st in states.items():
            if st["state"] is not None:
                check_transition(sid, st["state"], FORGOTTEN)
                rows.append((sid, new_id("sv")))
        repo.scrub_summaries(tx, [v for st in states.values() for v in st["versions"]], SUMMARY_TEXT,
                             text_hash(SUMMARY_TEXT), known, actor, reason)
        repo.forget_summaries(tx, ctx.tenant, rows, known, SUMMARY_TEXT, text_hash(SUMMARY_TEXT))
        changes(tx).summaries.extend(sid for sid, _ in rows)
        _tombstone_event(tx, ctx.tenant, known, summary_ids[0], "summary", actor, reason, summary_ids)

    ctx.write(work)
    probe = probes.setdefault(summary_ids[0], Probe(ids=summary_ids, kind="summary"))
    report = verify(ctx, target_id=summary_ids[0], kind="summary", probe=probe)
    return ForgetResult(target_id=summary_ids[0], kind="summary", forgotten=summary_ids, report=report)


def purge(ctx: Context, *, target_id: str, probes: dict[str, Probe]) -> ResidueReport:
    """forgotten -> deleted: remove the tombstoned nodes themselves; refused unless forgotten first."""
    found = kind_of(ctx, target_id)
    kind = found["kind"]
    target = found["fact_id"] if kind == "fact" else target_id
    if not found["forgotten"]:
        check_transition(target, State.ACTIVE.value, State.DELETED.value)  # raises: only forgotten may be deleted
    check_transition(target, FORGOTTEN, State.DELETED.value)
    ids = {"fact": "fact_ids", "source": "source_ids", "entity": "entity_ids", "summary": "summary_ids"}[kind]

    def work(tx: Tx, known: datetime) -> None:
        family = repo.entity_family(tx, ctx.tenant, target) if kind == "entity" else [target]
        repo.purge(tx, ctx.tenant, **{ids: family})
        repo.delete_probes(tx, ctx.tenant, [target])  # the last copy of the content goes with the tombstone
        ledger.audit(tx, ctx.tenant, known, [("purge", target, {"kind": kind})])

    ctx.write(work)
    probe = probes.get(target)  # this handle's capture, if any (the stored one went with the purge)
    return verify(ctx, target_id=target, kind=kind, probe=probe, extra_facts=probe.facts if probe else [])
