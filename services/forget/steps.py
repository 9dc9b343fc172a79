"""The steps forgetting takes, shared by `forget` (one id) and the scope-wide jobs (`scope.py`): capture the content
into the probe, mark and remove versions, reach entities, scrub copies, write the tombstone event, forget summaries."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from credo.graph.core import versions as fact_repo
from credo.graph.forget import forget as repo
from credo.graph.core import ledger
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema.facts import EndKind
from credo.schema.forget import ForgetResult
from credo.schema.lifecycle import State, check_transition
from credo.services.forget import seal as forget_seal
from credo.services.core.context import Context
from credo.services.forget.rules import (FREE_DROPPED, FREE_REMOVED, FREE_TEXT, SUMMARY_TEXT, TASK_REMOVED, Probe,
                                         free_probes, holding, ledger_subjects, tombstone, without_forgotten)
from credo.services.forget.verify import verify
from credo.services.adapters.summarizers import ListSummarizer
from credo.services.truth.rules import text_hash
from credo.services.core.flags import flag_states
from credo.services.core.unit_of_work import Write

FORGOTTEN = State.FORGOTTEN.value


def capture(tx: Tx, tenant: str, fact_ids: list[str], probe: Probe) -> list[dict[str, Any]]:
    """Read the facts' content into `probe` (stored with the forget until purge) and return their current versions
    and sources."""
    rows = repo.probes(tx, tenant, fact_ids)
    for r in rows:
        probe.add(r["statements"] + r["quotes"] + r["literals"], r["embeddings"])
    return rows


def mark_forgotten(w: Write, version_ids: list[str], reason: str) -> None:
    """The one state change of forgetting: each current version is flagged forgotten (a FLAGGED edge, through the
    transition table); the cascade sees them retired like any belief change."""
    if not version_ids:
        return
    retired = fact_repo.versions_by_ids(w.tx, w.tenant, version_ids)
    # a flag like every state change (issue 9): the version history stays, the transition table is checked
    flag_states(w, [(f, FORGOTTEN, None) for f in retired.values()], kind="forget",
                reason="forgotten", notify=False)
    # the cascade quotes a premise's statement in its causes: give it the tombstone, never the content
    w.changes.facts.extend((f.model_copy(update={"statement": f"forgotten for {reason}"}), EndKind.FORGOTTEN.value,
                            "forgotten") for f in retired.values())


def forget_facts(w: Write, rows: list[dict[str, Any]], *, by: str, reason: str, strict: bool) -> list[str]:
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
    mark_forgotten(w, moving, reason)
    return ids


def reach_entities(tx: Tx, tenant: str, fact_ids: list[str], probe: Probe, *,
                   spare: list[str] = ()) -> dict[str, list[str]]:
    """Step: the entities the facts name that no remembered fact names any more, which go with them (rule in the
    module docstring; the caller scrubs them). Their names join the probe first, so the forget's reason is checked
    against them and `scrub_copies` removes their copies too. `spare`: entities the caller forgets itself (a
    subject's own family). Returns entity id -> its names."""
    found = {e: names for e, names in repo.orphans(tx, tenant, fact_ids).items() if e not in spare}
    for names in found.values():
        probe.add_names(names)
    probe.entities += [e for e in found if e not in probe.entities]
    return found


def recorded(reason: str, behalf: str | None, probe: Probe) -> tuple[str, str | None]:
    """The reason and the claimed actor as the forget records them (tombstones, ledger, cascade causes): either one
    naming the forgotten content is replaced by a content-free text, as the free-text scrub would do after."""
    return without_forgotten(reason, probe.texts) or reason, without_forgotten(behalf, probe.texts)


def probe_sealer(ctx: Context, target_id: str) -> Callable[[Tx, Probe], None]:
    """A step storing the probe until purge inside the forget's write: its ids and tombstone, and its content only
    sealed under the target's probe key (fetched now, before the transaction: services/forget/seal.py); without a
    key store, no content at all. In crypto-erasure mode no text is kept: a copy readable until purge would outlive
    the destroyed content keys (the names of the entities forgotten with it are kept: names are never sealed)."""
    key = forget_seal.probe_key(ctx.keys, ctx.tenant, target_id) if ctx.keys is not None else None

    def save(tx: Tx, probe: Probe) -> None:
        props = probe.stored(target_id)
        if key is not None and (probe.texts or probe.embeddings):
            texts = probe.texts if ctx.cipher is None else probe.names
            props["seal_key"] = key[0]
            props["sealed"] = forget_seal.seal_with(key[1], ctx.tenant, target_id, texts, probe.embeddings)
        repo.save_probe(tx, ctx.tenant, props)

    return save


FREE_RULE = {"fields": FREE_TEXT, "removed": FREE_REMOVED, "dropped": FREE_DROPPED, "task_removed": TASK_REMOVED}


def scrub_copies(tx: Tx, tenant: str, known: datetime, probe: Probe, *, fact_ids: list[str], source_ids: list[str],
                 by: str, behalf: str | None, reason: str) -> list[str]:
    """The content of the facts' versions and of every copy (summaries, episodes, stale causes, receipts' questions),
    and every free text of the tenant naming it (reasons, causes, claimed actors, task labels, ledger details: the
    ledger's redacted, its chain intact), removed in one statement; returns the summaries to rebuild."""
    sealed = holding(repo.sealed_questions(tx, tenant), probe.texts) if probe.texts else []  # crypto mode only
    rebuild = repo.scrub_fact_copies(tx, tenant, fact_ids=fact_ids, source_ids=source_ids, texts=probe.texts,
                                     receipt_ids=sealed, free=free_probes(probe.texts, tenant), free_text=FREE_RULE,
                                     subject_ids=ledger_subjects(fact_ids, source_ids), known=known, by=by,
                                     behalf=behalf, reason=reason, cause=f"premise forgotten for {reason}",
                                     text_hash=text_hash(SUMMARY_TEXT))
    if probe.texts:  # a sealed verifier's reason on a remembered fact quoting it (crypto mode only): free text too
        repo.scrub_sealed_reasons(tx, tenant, holding(repo.sealed_reasons(tx, tenant), probe.texts), FREE_REMOVED)
    return rebuild


def tombstone_event(tx: Tx, tenant: str, known: datetime, target_id: str, kind: str, behalf: str | None,
                     reason: str, ids: list[str]) -> None:
    # the ledger records the acting key itself (its actor) and the claimed one apart (on_behalf_of)
    ledger.audit(tx, tenant, known, [("forget", target_id, {"kind": kind, "by": behalf, "reason": reason, "ids": ids})])


def rebuild_after(ctx: Context, summary_ids: list[str]) -> None:
    """Summaries that derived from forgotten content are rebuilt without it (or stay stale with the reason)."""
    from credo.schema.commands import Rebuild, build
    from credo.services.truth.summaries import rebuild

    for sid in summary_ids:
        rebuild(ctx, build(Rebuild, summary_id=sid), summarizer=ListSummarizer())


def forget_summaries(ctx: Context, summary_ids: list[str], reason: str, actor: str | None,
                      probes: dict[str, Probe], by: str | None = None) -> ForgetResult:
    """Forget summaries (every version's text and topic); `by` the acting principal (default `ctx.actor`), `actor`
    who it acted for."""
    by = by or ctx.actor
    mark: dict = {}

    def work(w: Write) -> None:
        tx, known = w.tx, w.known
        states = repo.summary_states(tx, ctx.tenant, summary_ids)
        rows = []
        for sid, st in states.items():
            if st["state"] is not None:
                check_transition(sid, st["state"], FORGOTTEN)
                rows.append((sid, new_id("sv")))
        repo.scrub_summaries(tx, [v for st in states.values() for v in st["versions"]], SUMMARY_TEXT,
                             text_hash(SUMMARY_TEXT), known, by, reason, actor)
        repo.forget_summaries(tx, ctx.tenant, rows, known, SUMMARY_TEXT, text_hash(SUMMARY_TEXT))
        w.changes.summaries.extend(sid for sid, _ in rows)
        tombstone_event(tx, ctx.tenant, known, summary_ids[0], "summary", actor, reason, summary_ids)
        mark.update(tombstone(known, by, actor, reason))

    ctx.write(work)
    probe = probes.setdefault(summary_ids[0], Probe(ids=summary_ids, kind="summary"))
    probe.tombstone = probe.tombstone or mark
    report = verify(ctx, target_id=summary_ids[0], kind="summary", probe=probe)
    return ForgetResult(target_id=summary_ids[0], kind="summary", forgotten=summary_ids, report=report)


