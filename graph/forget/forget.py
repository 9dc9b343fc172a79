"""Forgetting in the graph: read the content before it goes, remove it from every place, purge, and find residue."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native
from credo.graph.core.vectors import vector
from credo.schema.forget import ForgetJob, Kept, Residue

REMOVED_TEXT = "[content removed: an input was forgotten]"  # what a scrubbed summary version holds
REMOVED_TOPIC = "[topic removed: an input was forgotten]"  # and its topic (by default the text's first line)

READ_FORGET_PROBES = load("read_forget_probes")
READ_SUMMARIES_HOLDING = load("read_summaries_holding")
SCRUB_SUMMARY_VERSIONS = load("scrub_summary_versions")
READ_SOURCE_DEPENDENTS = load("read_source_dependents")
SCRUB_SOURCES = load("scrub_sources")
READ_SOURCE_RESIDUE = load("read_source_residue")
READ_ENTITY_FAMILY = load("read_entity_family")
READ_FACTS_ABOUT = load("read_facts_about")
SCRUB_ENTITIES = load("scrub_entities")
READ_ENTITY_RESIDUE = load("read_entity_residue")
READ_SUMMARY_RESIDUE = load("read_summary_residue")
FORGET_SUMMARIES = load("forget_summaries")
READ_SUMMARY_STATES = load("read_summary_states")
PURGE_NODES = load("purge_nodes")
READ_FORGET_TARGET = load("read_forget_target")
READ_TX_LOG_RETENTION = load("read_tx_log_retention")
SAVE_FORGET_JOB = load("save_forget_job")
READ_FORGET_JOBS = load("read_forget_jobs")
READ_TENANT_BATCH = load("read_tenant_batch")
READ_TENANT_RESIDUE = load("read_tenant_residue")
READ_FACT_COPIES = load("read_fact_copies")
SCRUB_FACT_COPIES = load("scrub_fact_copies")
SAVE_FORGET_PROBE = load("save_forget_probe")
READ_FORGET_PROBE = load("read_forget_probe")
DELETE_FORGET_PROBES = load("delete_forget_probes")
READ_ORPHAN_ENTITIES = load("read_orphan_entities")
READ_ENTITY_NAMES = load("read_entity_names")
READ_PURGED_TOMBSTONE = load("read_purged_tombstone")
READ_SEALED_QUESTIONS = load("read_sealed_questions")
READ_SEALED_REASONS = load("read_sealed_reasons")
SCRUB_SEALED_REASONS = load("scrub_sealed_reasons")


def target(tx: Tx, tenant: str, ident: str) -> dict[str, Any] | None:
    """{kind, fact_id, forgotten, tombstone ({forgotten_at, by, on_behalf_of, reason})} of what an id names in the
    tenant, or None."""
    row = tx.one(READ_FORGET_TARGET, tenant=tenant, id=ident)
    if not row or not row["kind"]:
        return None
    marks = [t for t in row["tombstones"] if t["at"] is not None]
    first = min(marks, key=lambda t: native(t["at"])) if marks else None
    tombstone = ({"forgotten_at": native(first["at"]), "by": first["by"] or "", "on_behalf_of": first["behalf"],
                  "reason": first["reason"] or ""} if first else None)
    return {"kind": row["kind"], "fact_id": row["fact_id"], "forgotten": row["forgotten"], "tombstone": tombstone}


def purged(tx: Tx, tenant: str, ident: str) -> dict[str, Any] | None:
    """{kind, tombstone, purged_at, sensitivity} of an id whose nodes were purged (from its purge event), or None;
    `sensitivity` is the label the purge recorded for what it deleted (None before purges recorded one)."""
    row = tx.one(READ_PURGED_TOMBSTONE, tenant=tenant, id=ident)
    if not row:
        return None
    detail = json.loads(row["detail"] or "{}")
    tombstone = ({"forgotten_at": detail["forgotten_at"], "by": detail.get("forgotten_by") or "",
                  "on_behalf_of": detail.get("forgotten_on_behalf_of"), "reason": row["reason"] or ""}
                 if detail.get("forgotten_at") else None)
    return {"kind": detail.get("kind"), "tombstone": tombstone, "purged_at": native(row["purged_at"]),
            "sensitivity": detail.get("sensitivity")}


def orphans(tx: Tx, tenant: str, fact_ids: list[str]) -> dict[str, list[str]]:
    """entity id -> names, for the entities the facts name that no other remembered fact names (through merges)."""
    rows = tx.rows(READ_ORPHAN_ENTITIES, tenant=tenant, fact_ids=fact_ids) if fact_ids else []
    return {r["entity_id"]: [n for n in r["names"] if n] for r in rows}


def probes(tx: Tx, tenant: str, fact_ids: list[str]) -> list[dict[str, Any]]:
    """Per fact: its statements, quotes, literal objects, a few embeddings, current versions and cited sources."""
    return tx.rows(READ_FORGET_PROBES, tenant=tenant, fact_ids=fact_ids) if fact_ids else []


def summaries_holding(tx: Tx, tenant: str, *, fact_ids: list[str], source_ids: list[str], texts: list[str]) -> list[dict[str, Any]]:
    """Summary versions deriving from the facts or sources, or whose text contains one of the texts."""
    return tx.rows(READ_SUMMARIES_HOLDING, tenant=tenant, fact_ids=fact_ids, source_ids=source_ids, texts=texts,
                   removed=REMOVED_TEXT, removed_topic=REMOVED_TOPIC)


def scrub_summaries(tx: Tx, version_ids: list[str], text: str, hash_: str, known: datetime, by: str, reason: str,
                    behalf: str | None = None) -> None:
    """Replace the text and topic of summary versions by content-free ones."""
    if version_ids:
        tx.one(SCRUB_SUMMARY_VERSIONS, version_ids=version_ids, text=text, topic=REMOVED_TOPIC, hash=hash_, known=known,
               by=by, behalf=behalf, reason=reason)


def _residue(rows: list[dict[str, Any]]) -> list[Residue]:
    return [Residue(place=r["place"], ref=str(r["ref"]), detail=r["detail"]) for r in rows]


def source_dependents(tx: Tx, tenant: str, source_id: str) -> list[tuple[str, bool]]:
    """(fact_id, backed by another live source) for the facts the source is evidence for."""
    return [(r["fact_id"], r["backed"]) for r in tx.rows(READ_SOURCE_DEPENDENTS, tenant=tenant, source_id=source_id)]


def scrub_sources(tx: Tx, tenant: str, source_ids: list[str], known: datetime, by: str, reason: str,
                  behalf: str | None = None) -> None:
    """Remove the sources' text and names, the quotes citing them, and stop believing the citing edges."""
    if source_ids:
        tx.one(SCRUB_SOURCES, tenant=tenant, source_ids=source_ids, known=known, by=by, behalf=behalf, reason=reason)


def source_residue(tx: Tx, tenant: str, source_ids: list[str]) -> list[Residue]:
    """Source properties and citing edges still holding the content."""
    return _residue(tx.rows(READ_SOURCE_RESIDUE, tenant=tenant, source_ids=source_ids))


def entity_family(tx: Tx, tenant: str, entity_id: str) -> list[str]:
    """The entity and every entity merged into it."""
    row = tx.one(READ_ENTITY_FAMILY, tenant=tenant, entity_id=entity_id)
    return list(row["entity_ids"]) if row else []


def facts_about(tx: Tx, tenant: str, entity_ids: list[str], limit: int) -> list[str]:
    """The next batch of not yet forgotten facts naming the entities."""
    return [r["fact_id"] for r in tx.rows(READ_FACTS_ABOUT, tenant=tenant, entity_ids=entity_ids, limit=limit)]


def entity_names(tx: Tx, tenant: str, entity_ids: list[str]) -> list[str]:
    """The names and aliases of entities not yet forgotten."""
    row = tx.one(READ_ENTITY_NAMES, tenant=tenant, entity_ids=entity_ids) if entity_ids else None
    return [n for n in row["names"] if n] if row else []


def scrub_entities(tx: Tx, tenant: str, entity_ids: list[str], known: datetime, by: str, reason: str,
                   behalf: str | None = None) -> None:
    """Remove the entities' names and aliases."""
    if entity_ids:
        tx.one(SCRUB_ENTITIES, tenant=tenant, entity_ids=entity_ids, known=known, by=by, behalf=behalf, reason=reason)


def entity_residue(tx: Tx, tenant: str, entity_ids: list[str]) -> list[Residue]:
    """Entity names, aliases and facts about them still holding content."""
    return _residue(tx.rows(READ_ENTITY_RESIDUE, tenant=tenant, entity_ids=entity_ids))


def summary_states(tx: Tx, tenant: str, summary_ids: list[str]) -> dict[str, dict[str, Any]]:
    """summary_id -> {state of the current version, versions}."""
    rows = tx.rows(READ_SUMMARY_STATES, tenant=tenant, summary_ids=summary_ids) if summary_ids else []
    return {r["summary_id"]: r for r in rows}


def forget_summaries(tx: Tx, tenant: str, rows: list[tuple[str, str]], known: datetime, text: str, hash_: str) -> None:
    """Close the current versions of summaries and write content-free forgotten successors."""
    if rows:
        tx.one(FORGET_SUMMARIES, tenant=tenant, known=known, text=text, topic=REMOVED_TOPIC, hash=hash_,
               rows=[{"summary_id": s, "version_id": v} for s, v in rows])


def summary_residue(tx: Tx, tenant: str, summary_ids: list[str]) -> list[Residue]:
    """Summary versions still holding their text or topic."""
    return _residue(tx.rows(READ_SUMMARY_RESIDUE, tenant=tenant, summary_ids=summary_ids, removed=REMOVED_TEXT,
                            removed_topic=REMOVED_TOPIC))


def purge(tx: Tx, tenant: str, *, fact_ids: list[str] = (), source_ids: list[str] = (), entity_ids: list[str] = (),
          summary_ids: list[str] = (), recipe_ids: list[str] = (),
          with_entities: list[str] = ()) -> list[dict[str, Any]]:
    """Delete the tombstoned nodes with their edges, and the forgotten entities no fact names any more; returns
    those entities' tombstones ({id, at, by, behalf, reason})."""
    row = tx.one(PURGE_NODES, tenant=tenant, fact_ids=list(fact_ids), source_ids=list(source_ids),
                 entity_ids=list(entity_ids), summary_ids=list(summary_ids), recipe_ids=list(recipe_ids),
                 with_entities=list(with_entities))
    return [{**e, "at": native(e["at"])} for e in row["entities"]] if row else []


def tx_log_retention(tx: Tx) -> str | None:
    """db.tx_log.rotation.retention_policy as the server reports it (None when it cannot be read)."""
    row = tx.one(READ_TX_LOG_RETENTION)
    return row["value"] if row else None


def save_job(tx: Tx, tenant: str, job: ForgetJob) -> None:
    """Persist a job's state and cursor."""
    props = job.model_dump(mode="json", exclude={"report"})
    props["report"] = job.report.model_dump_json() if job.report else None
    tx.one(SAVE_FORGET_JOB, tenant=tenant, props=props)


def jobs(tx: Tx, tenant: str, job_id: str | None = None) -> list[ForgetJob]:
    """Running jobs of the tenant (or the one job_id names)."""
    found = []
    for r in tx.rows(READ_FORGET_JOBS, tenant=tenant, job_id=job_id):
        data = {k: native(v) for k, v in r["job"].items() if k != "tenant"}
        report = data.pop("report", None)
        found.append(ForgetJob(**data, report=json.loads(report) if report else None))
    return found


def tenant_batch(tx: Tx, tenant: str, kind: str, limit: int) -> list[str]:
    """The next not yet forgotten ids of one kind in the tenant."""
    return [r["id"] for r in tx.rows(READ_TENANT_BATCH, tenant=tenant, kind=kind, limit=limit)]


def tenant_residue(tx: Tx, tenant: str) -> list[Residue]:
    """What still holds content in the whole tenant."""
    return _residue(tx.rows(READ_TENANT_RESIDUE, tenant=tenant, removed=REMOVED_TEXT, removed_topic=REMOVED_TOPIC))


def sealed_questions(tx: Tx, tenant: str) -> list[tuple[str, str]]:
    """(receipt id, question) of the tenant's receipts whose question is sealed, opened with this transaction's
    cipher (a destroyed key's reads as such); none without a cipher."""
    if tx.state.cipher is None:
        return []
    return [(r["receipt_id"], r["query"]) for r in tx.rows(READ_SEALED_QUESTIONS, tenant=tenant)]


def sealed_reasons(tx: Tx, tenant: str) -> list[tuple[str, str]]:
    """(verification id, reason) of the tenant's verdicts whose reason is sealed, opened with this transaction's
    cipher (a destroyed key's reads as such); none without a cipher."""
    if tx.state.cipher is None:
        return []
    return [(r["verification_id"], r["reason"]) for r in tx.rows(READ_SEALED_REASONS, tenant=tenant)]


def scrub_sealed_reasons(tx: Tx, tenant: str, verification_ids: list[str], removed: str) -> None:
    """Replace the reasons of these verdicts (sealed ones found quoting forgotten content) by `removed`."""
    if verification_ids:
        tx.one(SCRUB_SEALED_REASONS, tenant=tenant, verification_ids=list(verification_ids), removed=removed)


def scrub_fact_copies(tx: Tx, tenant: str, *, fact_ids: list[str], source_ids: list[str], texts: list[str],
                      free: list[tuple[str, str]], free_text: dict[str, Any], subject_ids: list[str], known: datetime,
                      by: str, behalf: str | None, reason: str, cause: str, text_hash: str,
                      receipt_ids: list[str] = ()) -> list[str]:
    """Remove the facts' content from their versions and every copy (stale causes, summaries' texts and topics,
    episodes, receipts' questions: `receipt_ids` those whose sealed question holds a text) and every free text naming
    it (`free`: (text, `free_text` index query); `free_text` its rule: fields, removed, dropped, task_removed) in one
    statement; returns the current summaries to rebuild."""
    row = tx.one(SCRUB_FACT_COPIES, tenant=tenant, fact_ids=fact_ids, source_ids=source_ids, texts=texts,
                 receipt_ids=list(receipt_ids),
                 subject_ids=subject_ids, known=known, by=by, behalf=behalf, reason=reason, cause=cause,
                 removed=REMOVED_TEXT, removed_topic=REMOVED_TOPIC, hash=text_hash,
                 free_queries=[q for _t, q in free], free_texts=[t for t, _q in free],
                 free_fields=free_text["fields"], free_removed=free_text["removed"],
                 free_dropped=free_text["dropped"], task_removed=free_text["task_removed"])
    return sorted(row["rebuild"]) if row else []


def fact_copies(tx: Tx, tenant: str, *, fact_ids: list[str], source_ids: list[str], texts: list[str],
                phrases: list[tuple[str, str]], free: list[tuple[str, str]], free_fields: dict[str, list[str]],
                embeddings: list[list[float]], subject_ids: list[str], entity_ids: list[str], probe_ids: list[str],
                same_vector: float, receipt_ids: list[str] = (),
                candidates: int = 20) -> tuple[list[Residue], list[Kept]]:
    """Every place still holding forgotten facts' content, with the full-text (`phrases`: (text, Lucene query)),
    free-text (`free`: (text, `free_text` index query)) and vector probes, in one round trip; and what it leaves by
    design (entities other facts name, sources)."""
    rows = tx.rows(READ_FACT_COPIES, tenant=tenant, fact_ids=fact_ids, source_ids=source_ids, texts=texts,
                   receipt_ids=list(receipt_ids), phrases=[q for _t, q in phrases],
                   probe_texts=[t for t, _q in phrases],
                   free_queries=[q for _t, q in free], free_texts=[t for t, _q in free], free_fields=free_fields,
                   embeddings=[vector(e) for e in embeddings], candidates=candidates, same_vector=same_vector,
                   subject_ids=subject_ids, removed=REMOVED_TEXT, removed_topic=REMOVED_TOPIC, entity_ids=entity_ids,
                   probe_ids=probe_ids)
    kept = [Kept(place=r["place"], ref=str(r["ref"]), detail=r["detail"]) for r in rows if r["kept"]]
    return _residue([r for r in rows if not r["kept"]]), kept


def save_probe(tx: Tx, tenant: str, props: dict[str, Any]) -> None:
    """Store a forget's probe (held until purge): content-free properties and the sealed copy, never the words."""
    tx.one(SAVE_FORGET_PROBE, tenant=tenant, props=props)


def read_probe(tx: Tx, tenant: str, target_id: str) -> dict[str, Any] | None:
    """The stored probe of a forgotten id, or None."""
    row = tx.one(READ_FORGET_PROBE, tenant=tenant, target_id=target_id)
    return {k: native(v) for k, v in row["probe"].items()} if row else None


def delete_probes(tx: Tx, tenant: str, target_ids: list[str]) -> None:
    """Delete the stored probes of the ids (purge, or a finished tenant-wide forget)."""
    if target_ids:
        tx.one(DELETE_FORGET_PROBES, tenant=tenant, target_ids=target_ids)
