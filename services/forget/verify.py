"""verify_forgotten: every place inside the store still holding forgotten content, what forgetting leaves there by
design, and what lies outside it. A purged id answers with its tombstone (kept in the ledger's purge event)."""

from __future__ import annotations

import time
from typing import Any
from weakref import WeakKeyDictionary

from credo.graph.core import clearance as clearance_repo
from credo.graph.forget import forget as repo
from credo.graph.forget import recipes as recipe_repo
from credo.graph.core import sealed
from credo.graph.core.db import Database, Tx
from credo.schema import commands_forget as cf
from credo.schema.errors import CredoError
from credo.schema.errors import NotFound
from credo.schema.forget import Kept, OutsideStore, Residue, ResidueReport, Tombstone
from credo.services.forget import crypto_erase
from credo.services.forget import seal as forget_seal
from credo.services.core.clearance import check_purged
from credo.services.core.context import Context
from credo.services.forget.rules import FREE_TEXT, Probe, free_probes, holding, ledger_subjects, lucene_phrase

MAX_TEXT_PROBES = 12
RETENTION_TTL_S = 60.0
# (retention, when it was read) per database handle: kept here, beside its one reader, not hung on the handle
_RETENTION: WeakKeyDictionary[Database, tuple[str | None, float]] = WeakKeyDictionary()
FROM_MEMORY = "this handle's memory"
FROM_STORE = "stored with the forget until purge"
FROM_NOWHERE = "none (purged, never captured, or its sealed copy cannot be opened here): graph-only checks"
SAME_VECTOR = 0.9999  # a hit this close to a forgotten embedding is a copy of it


# every kind of place the residue check looks in, whatever the target's kind (the index probes need the content)
CHECKED = ["forgotten nodes", "lifecycle", "relation copies", "stale causes", "summaries", "episodes",
           "read receipts", "entities and aliases", "sources", "recipes", "ledger", "probe", "free text",
           "verdicts and review items"]
LEDGER_KEPT = Kept(place="ledger", ref="AuditEvent",
                   detail="events (operation, ids, time, actor) stay: the ledger is append-only and hash-chained; "
                          "a reason, detail or claimed actor naming the content is redacted, its digest kept")
TASKS_KEPT = Kept(place="read receipt", ref="SERVED",
                  detail="receipts keep their links to the served versions (now tombstones) and their task label "
                         "unless it named the content, without the question text")



def kind_of(ctx: Context, target_id: str) -> dict[str, Any]:
    """What the id names in this tenant; NotFound otherwise (another tenant's ids too, and an id whose content is
    above the caller's clearance: a forget reaches all of it, services/core/clearance.py)."""
    def work(tx: Tx) -> dict[str, Any] | None:
        found = repo.target(tx, ctx.tenant, target_id)
        return None if found is None or clearance_repo.hidden(tx, ctx.tenant, target_id) else found

    found = ctx.read(work)
    if found is None:
        raise NotFound("forget target", target_id)
    return found


def residue(tx: Tx, tenant: str, kind: str, target_id: str, probe: Probe,
            extra_facts: list[str]) -> tuple[list[Residue], list[Kept]]:
    """The residue list of one forgotten id, and what it leaves by design: the kind's own places, then one statement
    for the facts' places, receipts, entities, sources, summaries, the stored probe, the full-text and vector probes
    and the ledger."""
    places: list[Residue] = []
    fact_ids = ([target_id] if kind == "fact" else []) + list(extra_facts)
    source_ids = [target_id] if kind == "source" else []
    if kind == "source":
        places += repo.source_residue(tx, tenant, [target_id])
        places += recipe_repo.residue(tx, tenant, source_ids=[target_id])  # the recipes it earned go with it
    if kind == "recipe":
        places += recipe_repo.residue(tx, tenant, recipe_ids=[target_id])
    if kind == "entity":
        places += repo.entity_residue(tx, tenant, repo.entity_family(tx, tenant, target_id))
    if kind == "summary":
        places += repo.summary_residue(tx, tenant, probe.ids or [target_id])
    if kind == "tenant":
        places += repo.tenant_residue(tx, tenant)
    texts = ([t for t in probe.texts if t not in probe.names] + probe.names)[:MAX_TEXT_PROBES]  # statements first
    sealed = holding(repo.sealed_questions(tx, tenant), probe.texts) if probe.texts else []  # crypto mode only
    found, kept = repo.fact_copies(tx, tenant, fact_ids=fact_ids, source_ids=source_ids, texts=probe.texts,
                                   receipt_ids=sealed,
                                   phrases=[(t, lucene_phrase(t)) for t in texts],
                                   free=free_probes(probe.texts, tenant), free_fields=FREE_TEXT,
                                   embeddings=probe.embeddings[:3],
                                   subject_ids=ledger_subjects(fact_ids, source_ids), entity_ids=probe.entities,
                                   probe_ids=[target_id], same_vector=SAME_VECTOR)
    found += [Residue(place="free text", ref=f"Verification:{vid}", detail="a verifier's sealed reason quotes the "
                      "forgotten content") for vid in (holding(repo.sealed_reasons(tx, tenant), probe.texts)
                                                       if probe.texts else [])]  # crypto mode only
    return list(dict.fromkeys(places + found)), list(dict.fromkeys(kept))


def retention_setting(ctx: Context) -> str | None:
    """db.tx_log.rotation.retention_policy, read once per connection and re-read after RETENTION_TTL_S (the setting
    is dynamic): `SHOW SETTINGS` is not a round trip every report pays."""
    cached = _RETENTION.get(ctx.db)
    if cached is not None and time.monotonic() - cached[1] < RETENTION_TTL_S:
        return cached[0]
    try:
        retention = ctx.read(repo.tx_log_retention)
    except CredoError:
        return None  # not cached: the next report asks again
    _RETENTION[ctx.db] = (retention, time.monotonic())
    return retention


def outside(retention: str | None) -> list[OutsideStore]:
    """Copies the store cannot erase by itself, with the transaction-log retention in force."""
    logs = (f"Neo4j keeps the removed values in its transaction logs until they rotate out "
            f"(db.tx_log.rotation.retention_policy = {retention or 'unknown: the server did not say'})")
    return [OutsideStore(place="transaction logs", detail=logs),
            OutsideStore(place="backups", detail="backups taken before the forget still hold the content until they "
                                                 "expire; the store cannot reach them")]


def verify(ctx: Context, *, target_id: str, kind: str | None = None, probe: Probe | None = None,
           extra_facts: list[str] = (), probe_from: str = FROM_MEMORY, tombstone: dict | None = None,
           purged_at: object = None) -> ResidueReport:
    """The residue report of a forgotten id (full-text and vector probes only with its captured content)."""
    if probe is None:
        probe = Probe(ids=[target_id])
    tombstone = tombstone or probe.tombstone
    purged_at = purged_at or probe.purged_at
    if not probe.texts and not probe.embeddings:
        probe_from = FROM_NOWHERE
    retention = retention_setting(ctx)

    def work(tx: Tx) -> ResidueReport:
        nonlocal kind
        tid = target_id
        if kind is None or (kind == "fact" and target_id not in probe.ids):  # a version id names its fact
            found = repo.target(tx, ctx.tenant, target_id)
            kind = kind or (found["kind"] if found else "fact")
            tid = found["fact_id"] if found and kind == "fact" else target_id
        places, kept = residue(tx, ctx.tenant, kind, tid, probe, list(extra_facts))
        ran = (["graph"] + (["full-text", "ledger by subject", "free text"] if probe.texts else [])
               + (["vector"] if probe.embeddings else []))
        checked = CHECKED + (["full-text index"] if probe.texts else []) + (["vector index"] if probe.embeddings else [])
        kept += [LEDGER_KEPT, TASKS_KEPT] + ([] if purged_at else [Kept(
            place="tombstone", ref=tid, detail="the forgotten nodes stay, content-free, until purge")])
        keys = probe.keys if ctx.cipher is None else list(dict.fromkeys(probe.keys + sealed.content_keys(
            tx, ctx.tenant, fact_ids=([tid] if kind == "fact" else []) + list(extra_facts),
            source_ids=[tid] if kind == "source" else [])))  # crypto off: nothing sealed to look up
        if kind == "recipe":  # sealed under the key of the source it was earned by, never its own
            because = recipe_repo.earned_by(tx, ctx.tenant, [tid]).get(tid)
            keys = sealed.content_keys(tx, ctx.tenant, fact_ids=[], source_ids=[because]) if because else []
            erased, why = crypto_erase.recipe_status(tx, ctx.tenant, ctx.cipher, tid, because, keys,
                                                     complete=not places)
        else:
            erased, why = crypto_erase.status(tx, ctx.tenant, ctx.cipher, keys, complete=not places)
        return ResidueReport(target_id=tid, kind=kind, residue=places, probes=ran, probe_from=probe_from,
                             checked=checked, left_by_design=kept,
                             tombstone=Tombstone(forgotten_at=tombstone["forgotten_at"], by=tombstone["by"],
                                                 on_behalf_of=tombstone.get("on_behalf_of"),
                                                 reason=tombstone["reason"]) if tombstone else None,
                             purged_at=purged_at, outside_store=outside(retention), tx_log_retention=retention,
                             crypto_erased=erased, crypto_reason=why)

    return ctx.read(work)


def stored_probe(ctx: Context, target_id: str) -> Probe | None:
    """The probe stored with a forget (held until purge), its sealed content opened with the key store; or None."""
    props = ctx.read(lambda tx: repo.read_probe(tx, ctx.tenant, target_id))
    if not props:
        return None
    content = forget_seal.open_sealed(ctx.keys, ctx.tenant, target_id, props.get("seal_key"), props.get("sealed"))
    return Probe.from_stored(props, content)


def _mark(ctx: Context, target_id: str, probe: Probe) -> None:
    """Complete a captured probe's tombstone and purge time from the graph, or from the ledger once purged."""
    def read(tx: Tx) -> tuple[dict | None, object]:
        found = repo.target(tx, ctx.tenant, target_id)
        if found is not None:
            return found["tombstone"], None
        gone = repo.purged(tx, ctx.tenant, target_id) or {}
        return gone.get("tombstone"), gone.get("purged_at")

    tombstone, purged_at = ctx.read(read)
    probe.tombstone = probe.tombstone or tombstone
    probe.purged_at = probe.purged_at or purged_at


def purged_report(ctx: Context, *, target_id: str, probe: Probe | None) -> ResidueReport:
    """The report of an id whose nodes were purged: with this handle's capture if any, its tombstone from the
    ledger's purge event; NotFound for an id this tenant never held (another tenant's ids too), and for one whose
    purged content was above the caller's clearance (the label the purge recorded)."""
    gone = ctx.read(lambda tx: repo.purged(tx, ctx.tenant, target_id))
    if gone is None and (probe is None or probe.purged_at is None):
        raise NotFound("forget target", target_id)
    if gone is not None and probe is None:  # a capture is this handle's own forget: it could see what it purged
        check_purged(ctx.clearance, gone.get("sensitivity"), "forget target", target_id)
    gone = gone or {}
    kind = gone.get("kind") or (probe.kind if probe else None)
    return verify(ctx, target_id=target_id, kind=kind, probe=probe, extra_facts=probe.facts if probe else [],
                  probe_from=FROM_MEMORY if probe else FROM_NOWHERE, tombstone=gone.get("tombstone"),
                  purged_at=gone.get("purged_at"))


def verify_forgotten(ctx: Context, cmd: cf.VerifyForgotten, *,
                     probes: dict[str, Probe] | None = None) -> ResidueReport:
    """verify_forgotten(id): with the content this handle captured (`probes`, even after purge), else with the probe
    stored with the forget until purge, else from the graph alone; a purged id answers with its tombstone; NotFound
    for an id this tenant does not hold."""
    target_id, probes = cmd.target_id, probes if probes is not None else {}
    probe = probes.get(target_id)
    if probe is not None:
        if probe.tombstone is None:  # captured before the forget wrote it (a subject's job found no fact)
            _mark(ctx, target_id, probe)
        return verify(ctx, target_id=target_id, kind=probe.kind, probe=probe, extra_facts=probe.facts)
    try:
        found = kind_of(ctx, target_id)
    except NotFound:
        return purged_report(ctx, target_id=target_id, probe=None)
    key = found["fact_id"] if found["kind"] == "fact" else target_id  # a version id names its fact
    probe = probes.get(key)
    if probe is not None:
        return verify(ctx, target_id=key, kind=found["kind"], probe=probe, extra_facts=probe.facts)
    probe = stored_probe(ctx, key)
    if probe is None:
        return verify(ctx, target_id=key, kind=found["kind"], tombstone=found["tombstone"])
    return verify(ctx, target_id=key, kind=found["kind"], probe=probe, extra_facts=probe.facts,
                  probe_from=FROM_STORE if probe.texts or probe.embeddings else FROM_NOWHERE,
                  tombstone=probe.tombstone or found["tombstone"])
