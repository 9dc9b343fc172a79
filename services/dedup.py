"""Dedup at write, the step every recording path shares (add_fact, add_facts, remember): a near-duplicate semantic
claim joins the established canonical fact as an alias with its own source, and a restated claim counts its
independent sources (rules in dedup_rules; DESIGN §3 merge rule, §9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from credo.graph import dedup as dedup_repo
from credo.graph import sources as source_repo
from credo.graph.db import Tx
from credo.schema.facts import EndKind, Fact, FactCreate, ObjectValue, scope_key
from credo.schema.lifecycle import SERVED_VALUES, State, check_transition
from credo.services.context import vectors
from credo.services.dedup_rules import (
    Candidate, corroborated, dedupable, independence_key, joined_epistemic, joined_evidence, near_duplicate,
)
from credo.services.flags import flag_states
from credo.services.versions import next_version, replace, retire

SourceRef = tuple[str, str | None, list[int] | None]  # (source_id, quote, span) a row was stated in
PoolKey = tuple[str, str, str]  # (subject id, predicate, scope key)


def pool(tx: Tx, tenant: str, rows: list[tuple[FactCreate, ObjectValue, Any]], created: set[str]) -> dict[PoolKey, list[Candidate]]:
    """The established claims the rows' semantic text statements may join, per (subject, predicate, scope); rows
    of a subject created by this write have none."""
    keys: dict[PoolKey, list[str]] = {}
    for data, value, subject in rows:
        if dedupable(data.kind, value.type) and subject.entity_id not in created:
            keys[(subject.entity_id, data.predicate, scope_key(data.scope))] = subject.ids
    order = list(keys)
    found = dedup_repo.candidates(tx, tenant, [(keys[k], k[1], k[2]) for k in order], sorted(SERVED_VALUES))
    return {k: [Candidate(c["version_id"], c["statement"], tuple(c["aliases"]), c["embedding"]) for c in cs]
            for k, cs in zip(order, found)}


def find(tx: Tx, candidates: dict[PoolKey, list[Candidate]], key: PoolKey, data: FactCreate, value: ObjectValue,
         statement: str) -> Candidate | None:
    """The established (or earlier planned) claim this row restates in other words, if any; without an embedder
    only an exact normalised statement match counts."""
    if not dedupable(data.kind, value.type):
        return None
    plan = vectors(tx)
    vector = plan.by_text.get(statement) if plan.enabled else None
    found = near_duplicate(statement, vector, candidates.get(key, []))
    return found.candidate if found else None


def offer(tx: Tx, candidates: dict[PoolKey, list[Candidate]], key: PoolKey, fact: Fact) -> None:
    """A new semantic text claim planned by this write becomes a candidate for the rows after it."""
    if dedupable(fact.kind, fact.object.type):
        plan = vectors(tx)
        candidates.setdefault(key, []).append(
            Candidate(fact.version_id, fact.statement, (), plan.by_text.get(fact.statement) if plan.enabled else None))


def absorb(fact: Fact, data: FactCreate, statement: str) -> Fact:
    """`fact` with `statement` joined as an alias: the weakest evidence of the two, a hypothesis if either was."""
    aliases = fact.aliases if statement in (fact.statement, *fact.aliases) else (*fact.aliases, statement)
    return fact.model_copy(update={
        "aliases": aliases, "evidence": joined_evidence(fact.evidence, data.evidence),
        "epistemic": joined_epistemic(fact.epistemic, data.epistemic),
    })


@dataclass
class Join:
    """What this write adds to one established version: restatements, aliases and new sources."""

    stored: Fact
    rows: list[tuple[FactCreate, str | None]] = field(default_factory=list)  # (row, alias statement or None)
    sources: list[SourceRef] = field(default_factory=list)


def settle(tx: Tx, tenant: str, known: datetime, joins: list[Join], fresh: list[tuple[Fact, SourceRef | None]]
           ) -> dict[str, Fact]:
    """Write what the joins change and link every row's source (new facts' too, already written); returns stored
    version id -> the version now believed.

    A joined version gets its aliases
    and weakest evidence, is reinforced by the restatement, and counts its independent sources again with the new
    ones; only a newly independent source raises its confidence (dedup_rules.corroborated)."""
    new_ids = [ref[0] for j in joins for ref in j.sources]
    described = {sid: _describe(s) for sid, s in source_repo.by_ids(tx, tenant, list(dict.fromkeys(new_ids))).items()}
    backing = dedup_repo.source_keys(tx, [j.stored.version_id for j in joins])
    result: dict[str, Fact] = {}
    pairs: list[tuple[Fact, Fact]] = []
    reinforced: list[Fact] = []  # plain restatements: one flag statement for the batch, not one per fact
    for j in joins:
        old = j.stored
        newer = old
        for data, alias in j.rows:
            if alias is not None:
                newer = absorb(newer, data, alias)
            if data.sensitivity is not None and data.sensitivity != newer.sensitivity:
                # restated under another label: a new version carries it (the last restatement's label wins)
                newer = newer.model_copy(update={"sensitivity": data.sensitivity})
        had = {independence_key(s) for s in backing.get(old.version_id, [])}
        now = had | {independence_key(described[r[0]]) for r in j.sources if r[0] in described}
        added = next((d.confidence for d, _ in j.rows if d.confidence is not None), None)
        newer = newer.model_copy(update={
            "independent_sources": len(now),
            "confidence": corroborated(old.confidence, added, before=len(had), after=len(now)),
        })
        if newer == old:  # a plain restatement says nothing new: reinforce the version by a flag (issue 9)
            if old.state != State.REINFORCED:
                reinforced.append(old)
                old = old.model_copy(update={"state": State.REINFORCED.value, "verified_at": known})
            result[old.version_id] = old
            continue
        if old.state != State.REINFORCED:
            check_transition(old.fact_id, old.state, State.REINFORCED)
        why = ("joined by a near-duplicate statement" if newer.aliases != old.aliases
               else "relabelled by a restatement" if newer.sensitivity != old.sensitivity
               else "reinforced by a restatement")
        newer = next_version(newer, known, state=State.REINFORCED.value, verified_at=known)
        pairs.append((old, newer))
        retire(tx, known, [(old, EndKind.STATE_CHANGE.value, why)])
        result[old.version_id] = newer
    if reinforced:
        flag_states(tx, tenant, known, [(old, State.REINFORCED.value, None) for old in reinforced],
                    kind="reinforcement", reason="reinforced by a restatement", verified_at=known)
    replace(tx, known, pairs)
    links = [(result[j.stored.version_id].version_id, *ref) for j in joins for ref in j.sources]
    links += [(f.version_id, *ref) for f, ref in fresh if ref]
    source_repo.link_sourced_from(tx, known, links)
    return result


def _describe(source: Any) -> dict[str, Any]:
    return {"source_id": source.source_id, "kind": source.kind, "author": source.author, "uri": source.uri,
            "title": source.title}


def group(joins: dict[str, Join], stored: Fact, data: FactCreate, alias: str | None, source: SourceRef | None) -> None:
    """Collect one row into the join of the stored version it restates."""
    j = joins.setdefault(stored.version_id, Join(stored))
    j.rows.append((data, alias))
    if source is not None:
        j.sources.append(source)


def source_at(sources: Sequence[SourceRef | None] | None, i: int) -> SourceRef | None:
    """Row i's source, if the caller gave one."""
    return sources[i] if sources and i < len(sources) else None
