"""verify_forgotten: every place inside the store still holding forgotten content, and what lies outside it."""

from __future__ import annotations

from credo.graph import forget as repo
from credo.graph import sealed
from credo.graph.db import Tx
from credo.schema.errors import CredoError
from credo.schema.forget import OutsideStore, Residue, ResidueReport
from credo.services import crypto_erase
from credo.services.context import Context
from credo.services.forget_rules import Probe, lucene_phrase

MAX_TEXT_PROBES = 12
SAME_VECTOR = 0.9999  # a hit this close to a forgotten embedding is a copy of it


def read_receipt_residue(tx: Tx, tenant: str, ids: list[str]) -> list[Residue]:
    """Extension point: read receipts (the context package's, built in wt-context) still naming forgotten ids.

    None exist on this branch yet; once receipts are merged this reads them and forget removes them."""
    return []


def _probe_hits(tx: Tx, tenant: str, ids: set[str], probe: Probe) -> list[Residue]:
    found: list[Residue] = []
    for text in probe.texts[:MAX_TEXT_PROBES]:
        for hit in repo.text_hits(tx, tenant, lucene_phrase(text)):
            if hit["fact_id"] in ids or text in (hit["statement"], hit["quote"]):
                found.append(Residue(place="full-text", ref=hit["version_id"], detail="the fact_text index finds it"))
    for emb in probe.embeddings[:3]:
        for hit in repo.vector_hits(tx, tenant, emb):
            if hit["fact_id"] in ids or hit["score"] >= SAME_VECTOR:
                found.append(Residue(place="vector", ref=hit["version_id"],
                                     detail=f"the fact_embedding index finds it (score {hit['score']:.4f})"))
    return found


def residue(tx: Tx, tenant: str, kind: str, target_id: str, probe: Probe, extra_facts: list[str]) -> list[Residue]:
    """The residue list of one forgotten id."""
    places: list[Residue] = []
    fact_ids = ([target_id] if kind == "fact" else []) + list(extra_facts)
    if kind == "source":
        places += repo.source_residue(tx, tenant, [target_id])
    if kind == "entity":
        places += repo.entity_residue(tx, tenant, repo.entity_family(tx, tenant, target_id))
    if kind == "summary":
        places += repo.summary_residue(tx, tenant, probe.ids or [target_id])
    if kind == "tenant":
        places += repo.tenant_residue(tx, tenant)
    if fact_ids:
        places += repo.fact_residue(tx, tenant, fact_ids, probe.texts)
    held = repo.summaries_holding(tx, tenant, fact_ids=fact_ids, source_ids=[target_id] if kind == "source" else [],
                                  texts=probe.texts)
    places += [Residue(place="episode" if h["kind"] == "episode" else "summary", ref=h["version_id"],
                       detail="its text contains the content" if h["holds"] else "derived from it, text kept")
               for h in held]
    places += _probe_hits(tx, tenant, set(fact_ids), probe)
    places += [Residue(place="audit ledger", ref=e, detail="an event's detail holds the content")
               for e in repo.audit_holding(tx, tenant, probe.texts)]
    places += read_receipt_residue(tx, tenant, [target_id, *fact_ids])
    return list(dict.fromkeys(places))


def outside(tx: Tx) -> tuple[list[OutsideStore], str | None]:
    """Copies the store cannot erase by itself, with the transaction-log retention in force."""
    try:
        retention = repo.tx_log_retention(tx)
    except CredoError:
        retention = None
    logs = (f"Neo4j keeps the removed values in its transaction logs until they rotate out "
            f"(db.tx_log.rotation.retention_policy = {retention or 'unknown: the server did not say'})")
    return [OutsideStore(place="transaction logs", detail=logs),
            OutsideStore(place="backups", detail="backups taken before the forget still hold the content until they "
                                                 "expire; the store cannot reach them")], retention


def verify(ctx: Context, *, target_id: str, kind: str | None = None, probe: Probe | None = None,
           extra_facts: list[str] = ()) -> ResidueReport:
    """The residue report of a forgotten id (full-text and vector probes only while its content is in memory)."""
    probe = probe or Probe(ids=[target_id])

    def work(tx: Tx) -> ResidueReport:
        nonlocal kind
        if kind is None:
            found = repo.target(tx, ctx.tenant, target_id)
            kind = found["kind"] if found else "fact"
        tid = target_id
        if kind == "fact":
            found = repo.target(tx, ctx.tenant, target_id)
            tid = found["fact_id"] if found else target_id
        places = residue(tx, ctx.tenant, kind, tid, probe, list(extra_facts))
        beyond, retention = outside(tx)
        ran = ["graph"] + (["full-text", "ledger text"] if probe.texts else []) + (["vector"] if probe.embeddings else [])
        keys = list(dict.fromkeys(probe.keys + sealed.content_keys(
            tx, ctx.tenant, fact_ids=([tid] if kind == "fact" else []) + list(extra_facts),
            source_ids=[tid] if kind == "source" else [])))
        erased, why = crypto_erase.status(tx, ctx.tenant, ctx.cipher, keys)
        return ResidueReport(target_id=tid, kind=kind, residue=places, probes=ran, outside_store=beyond,
                             tx_log_retention=retention, crypto_erased=erased, crypto_reason=why)

    return ctx.read(work)


def verify_forgotten(ctx: Context, *, target_id: str, probes: dict[str, Probe]) -> ResidueReport:
    """verify_forgotten(id): with the content this process captured (even after purge), else from the graph alone;
    NotFound for an id this tenant does not hold."""
    from credo.services.forget import kind_of

    probe = probes.get(target_id)
    if probe is not None:
        return verify(ctx, target_id=target_id, kind=probe.kind, probe=probe, extra_facts=probe.facts)
    found = kind_of(ctx, target_id)
    probe = probes.get(found["fact_id"] or "")
    return verify(ctx, target_id=target_id, kind=found["kind"], probe=probe, extra_facts=probe.facts if probe else [])
