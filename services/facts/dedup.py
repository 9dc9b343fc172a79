"""Dedup at write, the step every recording path shares (add_fact, add_facts, remember): a near-duplicate semantic
claim joins the established canonical fact as an alias with its own source, and a restated claim counts its
independent sources and takes the strongest evidence of the sources that state it (rules in dedup_rules; DESIGN §3
restatements, §9). A plain human restatement confirms a hypothesis in a new version that keeps every quote; a hedge
from a person who had stated the claim plainly opens the question instead: the version is flagged stale (awaiting
re-verification, listed under open by the context package), never silently made a hypothesis again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from credo.graph.facts import dedup as dedup_repo
from credo.graph.gate import sources as source_repo
from credo.graph.core.db import Tx
from credo.schema.facts import EndKind, Epistemic, Evidence, Fact, FactCreate, ObjectValue, scope_key
from credo.schema.lifecycle import SERVED_VALUES, State, check_transition
from credo.schema.search import readers_see
from credo.schema.sources import Source
from credo.services.facts.dedup_rules import (
    Candidate, corroborated, dedupable, frames_needed, independence_key, near_duplicate, restated,
)
from credo.services.facts.evidence_rules import held
from credo.services.core.flags import flag_states
from credo.services.gate.rules import quote_hedges
from credo.services.core.unit_of_work import UnforeseenStatements, Vectors, Write
from credo.services.core.versions import next_version, replace, retire, unbound

SourceRef = tuple[str, str | None, list[int] | None]  # (source_id, quote, span) a row was stated in
PoolKey = tuple[str, str, str]  # (subject id, predicate, scope key)


def pool(tx: Tx, tenant: str, rows: list[tuple[FactCreate, ObjectValue, Any]], created: set[str],
         vectors: Vectors | None = None) -> dict[PoolKey, list[Candidate]]:
    """The established claims the rows' semantic text statements may join, per (subject, predicate, scope); rows
    of a subject created by this write have none.

    With `vectors`, the frames the join decision will ask for (paraphrase_rules) must be among them: the attempt
    aborts with UnforeseenStatements naming the missing ones, which Context.write embeds outside the transaction
    before it runs the write again (once: the candidates are the same)."""
    keys: dict[PoolKey, list[str]] = {}
    for data, value, subject in rows:
        if dedupable(data.kind, value.type) and subject.entity_id not in created:
            keys[(subject.entity_id, data.predicate, scope_key(data.scope))] = subject.ids
    order = list(keys)
    found = dedup_repo.candidates(tx, tenant, [(keys[k], k[1], k[2]) for k in order], sorted(SERVED_VALUES))
    result = {k: [Candidate(c["version_id"], c["statement"], tuple(c["aliases"]), c["embedding"]) for c in cs]
              for k, cs in zip(order, found)}
    if vectors is not None and vectors.enabled:
        needed: list[str] = []
        for data, value, subject in rows:
            key = (subject.entity_id, data.predicate, scope_key(data.scope))
            if data.statement and key in result and dedupable(data.kind, value.type):
                needed += frames_needed(data.statement, vectors.by_text.get(data.statement), result[key])
        missing = [t for t in dict.fromkeys(needed) if t.strip() and t not in vectors.by_text]
        if missing:
            raise UnforeseenStatements(missing)
    return result


def find(w: Write, candidates: dict[PoolKey, list[Candidate]], key: PoolKey, data: FactCreate, value: ObjectValue,
         statement: str) -> Candidate | None:
    """The established (or earlier planned) claim this row restates in other words, if any; without an embedder
    only an exact normalised statement match counts."""
    if not dedupable(data.kind, value.type):
        return None
    plan = w.vectors
    vector = plan.by_text.get(statement) if plan.enabled else None
    found = near_duplicate(statement, vector, candidates.get(key, []), vectors=plan.by_text if plan.enabled else None)
    return found.candidate if found else None


def offer(w: Write, candidates: dict[PoolKey, list[Candidate]], key: PoolKey, fact: Fact) -> None:
    """A new semantic text claim planned by this write becomes a candidate for the rows after it."""
    if dedupable(fact.kind, fact.object.type):
        plan = w.vectors
        candidates.setdefault(key, []).append(
            Candidate(fact.version_id, fact.statement, (), plan.by_text.get(fact.statement) if plan.enabled else None))


def fold_in(fact: Fact, data: FactCreate, alias: str | None, *, vouched: bool, own_voice: bool = False
            ) -> tuple[Fact, bool]:
    """`fact` restated by a row (its statement joined as an alias when it words the claim otherwise), with the
    standing of dedup_rules.restated; and whether the row opens the question."""
    aliases = fact.aliases
    if alias is not None and alias not in (fact.statement, *fact.aliases):
        aliases = (*fact.aliases, alias)
    standing = restated(fact.evidence, fact.epistemic, offered=data.evidence, offered_epistemic=data.epistemic,
                        vouched=vouched, own_voice=own_voice)
    # a person restating an operational rule is still no direct evidence: the hold stays (evidence_rules.held)
    epistemic, _held = held(standing.epistemic, operational=fact.evidence_hold)
    return fact.model_copy(update={"aliases": aliases, "evidence": standing.evidence,
                                   "epistemic": epistemic}), standing.opens


def vouched(data: FactCreate, source: SourceRef | None) -> bool:
    """Whether a row came through the gate: a human's verbatim quote (its source) earned its evidence. An agent's or
    a tool's write (no source, evidence unknown) never raises a claim's evidence."""
    return source is not None and data.evidence != Evidence.UNKNOWN


@dataclass
class Join:
    """What this write adds to one established version: restatements, aliases and new sources."""

    stored: Fact
    rows: list[tuple[FactCreate, str | None, SourceRef | None]] = field(default_factory=list)  # (row, alias, source)
    sources: list[SourceRef] = field(default_factory=list)


def settle(w: Write, joins: list[Join], fresh: list[tuple[Fact, SourceRef | None]]) -> dict[str, Fact]:
    """Write what the joins change and link every row's source (new facts' too, already written); returns stored
    version id -> the version now believed.

    A joined version gets its aliases and the standing of its restatements (dedup_rules.restated), is reinforced by
    the restatement, and counts its independent sources again with the new ones; only a newly independent source
    raises its confidence (dedup_rules.corroborated). A restatement that changes nothing the version says is a
    reinforcement flag; one that opens the question flags the version stale, with the cause."""
    tx, tenant, known = w.tx, w.tenant, w.known
    new_ids = [ref[0] for j in joins for ref in j.sources]
    found = source_repo.by_ids(tx, tenant, list(dict.fromkeys(new_ids)))
    described = {sid: _describe(s) for sid, s in found.items()}
    backing = dedup_repo.source_keys(tx, [j.stored.version_id for j in joins])
    result: dict[str, Fact] = {}
    pairs: list[tuple[Fact, Fact]] = []
    reinforced: list[Fact] = []  # plain restatements: one flag statement for the batch, not one per fact
    questioned: list[tuple[Fact, str, str | None]] = []
    for j in joins:
        old = j.stored
        newer, voice, opened = old, None, None
        for data, alias, ref in j.rows:
            vouches = vouched(data, ref) and ref is not None and ref[0] in found
            own = (vouches and data.epistemic == Epistemic.HYPOTHESIS and old.epistemic == Epistemic.CONFIRMED
                   and _plain_voice(tx, tenant, backing.get(old.version_id, []), described[ref[0]]))
            newer, opens = fold_in(newer, data, alias, vouched=vouches, own_voice=own)
            if vouches:
                voice = found[ref[0]]
            if opens:
                opened = found[ref[0]]
            if data.sensitivity is not None and data.sensitivity != newer.sensitivity:
                # restated under another label: a new version carries it (the last restatement's label wins)
                newer = newer.model_copy(update=unbound(newer, {"sensitivity": data.sensitivity}))
        had = {independence_key(s) for s in backing.get(old.version_id, [])}
        now = had | {independence_key(described[r[0]]) for r in j.sources if r[0] in described}
        added = next((d.confidence for d, _, _ in j.rows if d.confidence is not None), None)
        newer = newer.model_copy(update={
            "independent_sources": len(now),
            "confidence": corroborated(old.confidence, added, before=len(had), after=len(now)),
        })
        if opened is not None:  # the question is opened, not the claim reinforced
            if newer != old:
                newer = next_version(newer, known)
                pairs.append((old, newer))
                retire(w, [(old, EndKind.STATE_CHANGE.value, "restated with a hedge"
                                    if readers_see(old.sensitivity, newer.sensitivity) else SUPERSEDED)])
            questioned.append((newer, State.STALE.value, _question(opened)))
            result[old.version_id] = newer
            continue
        if newer == old:  # a plain restatement says nothing new: reinforce the version by a flag (issue 9)
            if old.state != State.REINFORCED:
                reinforced.append(old)
                old = old.model_copy(update={"state": State.REINFORCED.value, "verified_at": known})
            result[old.version_id] = old
            continue
        if old.state != State.REINFORCED:
            check_transition(old.fact_id, old.state, State.REINFORCED)
        why = _step(old, newer, voice)
        newer = next_version(newer, known, state=State.REINFORCED.value, verified_at=known)
        pairs.append((old, newer))
        retire(w, [(old, EndKind.STATE_CHANGE.value, why)])
        result[old.version_id] = newer
    if reinforced:
        flag_states(w, [(old, State.REINFORCED.value, None) for old in reinforced],
                    kind="reinforcement", reason="reinforced by a restatement", verified_at=known)
    replace(w, pairs)
    if questioned:
        flag_states(w, questioned, kind="question",
                    reason="hedged by a person who had stated it plainly: does it still hold?")
        stale = {v.version_id: cause for v, _state, cause in questioned}
        result = {k: v.model_copy(update={"state": State.STALE.value, "stale_cause": stale[v.version_id]})
                  if v.version_id in stale else v for k, v in result.items()}
    links = [(result[j.stored.version_id].version_id, *ref) for j in joins for ref in j.sources]
    links += [(f.version_id, *ref) for f, ref in fresh if ref]
    source_repo.link_sourced_from(tx, known, links)
    return result


def _where(source: Source) -> str:
    return f"session {source.session_id!r} message #{source.index}"


def _question(source: Source) -> str:
    """The stale cause of a claim a person hedged after stating it plainly (no quoted words: causes are shown)."""
    return f"{source.author or 'its author'} hedged it in {_where(source)} after stating it plainly"


def _step(old: Fact, newer: Fact, voice: Source | None) -> str:
    """Why a restatement wrote a new version: what the history shows for the step. Relabelled for readers who may
    not see the new label, the old version says only that it was superseded: its readers learn no new label, no
    message and no change they may not see (services/core/clearance.py)."""
    if not readers_see(old.sensitivity, newer.sensitivity):
        return SUPERSEDED
    where = f" in {_where(voice)}" if voice is not None else ""
    if old.epistemic == Epistemic.HYPOTHESIS and newer.epistemic == Epistemic.CONFIRMED:
        return f"confirmed: stated without a hedge{where}"
    if old.evidence != newer.evidence:
        return f"evidence {old.evidence.value} -> {newer.evidence.value}: stated{where}"
    if old.epistemic != newer.epistemic:
        return f"a hypothesis: the first person to vouch for it hedged{where}"
    if newer.aliases != old.aliases:
        return "joined by a near-duplicate statement"
    return "relabelled by a restatement" if newer.sensitivity != old.sensitivity else "reinforced by a restatement"


SUPERSEDED = "superseded by a restatement"


def _plain_voice(tx: Tx, tenant: str, backing: list[dict[str, Any]], row: dict[str, Any]) -> bool:
    """Whether the row's author already stated the claim without a hedge: one of the version's message sources by
    the same person whose quoted words (at the edge's span) and their sentence hedge nothing."""
    key = independence_key(row)
    mine = [s for s in backing if s.get("kind") == "message" and s.get("span") and independence_key(s) == key]
    if not mine:
        return False
    texts = source_repo.by_ids(tx, tenant, [s["source_id"] for s in mine])
    for s in mine:
        text = texts[s["source_id"]].text if s["source_id"] in texts else None
        span = list(s["span"])
        if text and not quote_hedges(text, span, text[span[0]:span[1]]):
            return True
    return False


def _describe(source: Any) -> dict[str, Any]:
    return {"source_id": source.source_id, "kind": source.kind, "author": source.author, "uri": source.uri,
            "title": source.title}


def group(joins: dict[str, Join], stored: Fact, data: FactCreate, alias: str | None, source: SourceRef | None) -> None:
    """Collect one row into the join of the stored version it restates."""
    j = joins.setdefault(stored.version_id, Join(stored))
    j.rows.append((data, alias, source))
    if source is not None:
        j.sources.append(source)


def source_at(sources: Sequence[SourceRef | None] | None, i: int) -> SourceRef | None:
    """Row i's source, if the caller gave one."""
    return sources[i] if sources and i < len(sources) else None
