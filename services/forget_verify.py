"""verify_forgotten: every place inside the store still holding forgotten content, and what lies outside it."""

from __future__ import annotations

import time

from credo.graph import forget as repo
from credo.graph import sealed
from credo.graph.db import Tx
from credo.schema.errors import CredoError
from credo.schema.forget import OutsideStore, Residue, ResidueReport
from credo.services import crypto_erase
from credo.services.context import Context
from credo.services.forget_rules import Probe, ledger_subjects, lucene_phrase

MAX_TEXT_PROBES = 12
RETENTION_TTL_S = 60.0
FROM_MEMORY = "this handle's memory"
FROM_STORE = "stored with the forget until purge"
FROM_NOWHERE = "none (purged, or never captured): graph-only checks"
SAME_VECTOR = 0.9999  # a hit this close to a forgotten embedding is a copy of it


def read_receipt_residue(tx: Tx, tenant: str, ids: list[str]) -> list[Residue]:
    """Extension point: read receipts (the context package's, built in wt-context) still naming forgotten ids.

    None exist on this branch yet; once receipts are merged this reads them and forget removes them."""
    return []


def residue(tx: Tx, tenant: str, kind: str, target_id: str, probe: Probe, extra_facts: list[str]) -> list[Residue]:
    """The residue list of one forgotten id: the kind's own places, then one statement for the facts' places, the
    summaries, the full-text and vector probes and the ledger."""
    places: list[Residue] = []
    fact_ids = ([target_id] if kind == "fact" else []) + list(extra_facts)
    source_ids = [target_id] if kind == "source" else []
    if kind == "source":
        places += repo.source_residue(tx, tenant, [target_id])
    if kind == "entity":
        places += repo.entity_residue(tx, tenant, repo.entity_family(tx, tenant, target_id))
    if kind == "summary":
        places += repo.summary_residue(tx, tenant, probe.ids or [target_id])
    if kind == "tenant":
        places += repo.tenant_residue(tx, tenant)
    texts = probe.texts[:MAX_TEXT_PROBES]
    places += repo.fact_copies(tx, tenant, fact_ids=fact_ids, source_ids=source_ids, texts=probe.texts,
                               phrases=[(t, lucene_phrase(t)) for t in texts], embeddings=probe.embeddings[:3],
                               subject_ids=ledger_subjects(fact_ids, source_ids), same_vector=SAME_VECTOR)
    places += read_receipt_residue(tx, tenant, [target_id, *fact_ids])
    return list(dict.fromkeys(places))


def retention_setting(ctx: Context) -> str | None:
    """db.tx_log.rotation.retention_policy, read once per connection and re-read after RETENTION_TTL_S (the setting
    is dynamic): `SHOW SETTINGS` is not a round trip every report pays."""
    cached = getattr(ctx.db, "credo_tx_log_retention", None)
    if cached is not None and time.monotonic() - cached[1] < RETENTION_TTL_S:
        return cached[0]
    try:
        retention = ctx.read(repo.tx_log_retention)
    except CredoError:
        return None  # not cached: the next report asks again
    setattr(ctx.db, "credo_tx_log_retention", (retention, time.monotonic()))
    return retention


def outside(retention: str | None) -> list[OutsideStore]:
    """Copies the store cannot erase by itself, with the transaction-log retention in force."""
    logs = (f"Neo4j keeps the removed values in its transaction logs until they rotate out "
            f"(db.tx_log.rotation.retention_policy = {retention or 'unknown: the server did not say'})")
    return [OutsideStore(place="transaction logs", detail=logs),
            OutsideStore(place="backups", detail="backups taken before the forget still hold the content until they "
                                                 "expire; the store cannot reach them")]


def verify(ctx: Context, *, target_id: str, kind: str | None = None, probe: Probe | None = None,
           extra_facts: list[str] = (), probe_from: str = FROM_MEMORY) -> ResidueReport:
    """The residue report of a forgotten id (full-text and vector probes only with its captured content)."""
    if probe is None:
        probe = Probe(ids=[target_id])
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
        places = residue(tx, ctx.tenant, kind, tid, probe, list(extra_facts))
        ran = (["graph"] + (["full-text", "ledger by subject"] if probe.texts else [])
               + (["vector"] if probe.embeddings else []))
        keys = probe.keys if ctx.cipher is None else list(dict.fromkeys(probe.keys + sealed.content_keys(
            tx, ctx.tenant, fact_ids=([tid] if kind == "fact" else []) + list(extra_facts),
            source_ids=[tid] if kind == "source" else [])))  # crypto off: nothing sealed to look up
        erased, why = crypto_erase.status(tx, ctx.tenant, ctx.cipher, keys)
        return ResidueReport(target_id=tid, kind=kind, residue=places, probes=ran, probe_from=probe_from,
                             outside_store=outside(retention), tx_log_retention=retention,
                             crypto_erased=erased, crypto_reason=why)

    return ctx.read(work)


def stored_probe(ctx: Context, target_id: str) -> Probe | None:
    """The probe stored with a forget (held until purge), or None."""
    props = ctx.read(lambda tx: repo.read_probe(tx, ctx.tenant, target_id))
    return Probe.from_stored(props) if props else None


def verify_forgotten(ctx: Context, *, target_id: str, probes: dict[str, Probe]) -> ResidueReport:
    """verify_forgotten(id): with the content this handle captured (even after purge), else with the probe stored
    with the forget until purge, else from the graph alone; NotFound for an id this tenant does not hold."""
    from credo.services.forget import kind_of

    probe = probes.get(target_id)
    if probe is not None:
        return verify(ctx, target_id=target_id, kind=probe.kind, probe=probe, extra_facts=probe.facts)
    found = kind_of(ctx, target_id)
    key = found["fact_id"] if found["kind"] == "fact" else target_id  # a version id names its fact
    probe = probes.get(key)
    if probe is not None:
        return verify(ctx, target_id=key, kind=found["kind"], probe=probe, extra_facts=probe.facts)
    probe = stored_probe(ctx, key)
    if probe is None:
        return verify(ctx, target_id=key, kind=found["kind"])
    return verify(ctx, target_id=key, kind=found["kind"], probe=probe, extra_facts=probe.facts, probe_from=FROM_STORE)
