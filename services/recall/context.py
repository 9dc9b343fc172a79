"""The context package for a question or an entity (DESIGN §8, issue 11 item 3): current, historical, open.

For an entity the package is built from the as-of reads of the facts about it (as subject and as object); for a
question, from the entities the question names (the longest word runs that name an entity or an alias); a question
naming none is answered from the best fact hits of the hybrid search (services/recall/search.py): the package of their
subjects and objects (search matches any word, so beside named entities its loose hits would only add noise). Only
what the caller's clearance may see is placed (its reads filter it: cypher/fragments/visible.cypher). Each version
is placed by `context_rules.place`; the rendering for a prompt is `context_rules.render`. Given a `task`, the served versions are recorded as a read receipt (services/recall/receipts.py) in one write after the read.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from credo.graph.recall import context_reads
from credo.graph.facts import entities as entity_repo
from credo.graph.core import versions as fact_repo
from credo.graph.facts import conflicts as conflict_repo
from credo.graph.core.db import Tx
from credo.schema import commands_recall as cr
from credo.schema import commands_search as cs
from credo.schema.context_package import OPEN_KINDS, ContextItem, ContextPackage
from credo.schema.entities import Entity
from credo.schema.errors import InvalidInput
from credo.schema.facts import Fact, scope_key
from credo.schema.lifecycle import State, is_served
from credo.schema.names import check_scope, clean_name
from credo.schema.verify import VerifiedBy
from credo.services.recall import context_rules as rules
from credo.services.recall import receipts
from credo.services.recall import search as search_service
from credo.services.core.context import Context
from credo.services.facts import evidence_rules
from credo.services.facts.read import points
from credo.services.core.support import served_at

VISIBLE = sorted(s.value for s in State if s not in rules.EXCLUDED)
MAX_WORDS = 6  # the longest word run of a question looked up as an entity name
_WORD = re.compile(r"[^\W_][\w'&.+-]*", re.UNICODE)
OPEN_ORDER = OPEN_KINDS


def context(ctx: Context, cmd: cr.ContextQuery) -> ContextPackage:
    """Read the package at (valid_at, known_at), render it within the budget, and record a receipt for `task`."""
    query, valid_at, known_at, scope = cmd.query, cmd.valid_at, cmd.known_at, cmd.scope
    budget_tokens, task = cmd.budget_tokens, cmd.task
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput("query", "must be a question or an entity name (non-empty text)")
    query = query.strip()
    task = None if task is None else clean_name(task, "task")
    if budget_tokens is not None and (isinstance(budget_tokens, bool) or budget_tokens < MIN_BUDGET):
        raise InvalidInput("budget_tokens", f"must be at least {MIN_BUDGET} (room for the truncation note)")
    scope = None if scope is None else check_scope(scope)
    valid, known = points(ctx, valid_at, known_at)
    named = ctx.read(lambda tx: named_entities(tx, ctx.tenant, query, known))
    found = [] if named else _searched(ctx, query, valid_at=valid_at, known_at=known_at, scope=scope)
    package = ctx.read(lambda tx: _package(tx, ctx.tenant, query, valid, known, scope, named, found))
    text, count, truncated, omitted = rules.render(package, budget_tokens)
    package = package.model_copy(update={"markdown": text, "tokens": count, "budget_tokens": budget_tokens,
                                          "truncated": truncated, "omitted": omitted})
    if task is None:
        return package
    served = [(i.fact.version_id, i.part) for i in package.current + package.historical + package.open]
    receipt_id = receipts.served(ctx, task=task, version_ids=[v for v, _ in served], parts=[p for _, p in served],
                                 operation="context", query=query, valid_at=valid, known_at=known)
    return package.model_copy(update={"receipt_id": receipt_id})


MIN_BUDGET = 64
SEARCH_HITS = 5  # the best search hits whose entities join a question's package


def _searched(ctx: Context, query: str, *, valid_at: Any, known_at: Any, scope: dict[str, str] | None) -> list[str]:
    """Entity ids of the subjects and objects of the best fact hits of the hybrid search for a question."""
    # the package's own fields, checked by its command: the search's command is not validated again (a package's
    # question may be longer than a search's)
    cmd = cs.SearchQuery.model_construct(query=query, valid_at=valid_at, known_at=known_at, scope=scope,
                                         kinds=["fact"], states=None, limit=SEARCH_HITS, task=None)
    result = search_service.search(ctx, cmd)
    ids: list[str] = []
    for hit in result.hits:
        if hit.fact is not None:
            ids += [hit.fact.subject_id] + ([hit.fact.object.entity_id] if hit.fact.object.entity_id else [])
    return list(dict.fromkeys(ids))


def _package(tx: Tx, tenant: str, query: str, valid: datetime, known: datetime | None,
             scope: dict[str, str] | None, named: list[Entity], searched: list[str]) -> ContextPackage:
    entities = list(named)
    for entity_id in searched:
        entity = entity_repo.by_id(tx, tenant, entity_id)
        if entity is not None and entity.entity_id not in {e.entity_id for e in entities}:
            resolved = entity_repo.find(tx, tenant, entity.name, known) or entity
            if resolved.entity_id not in {e.entity_id for e in entities}:
                entities.append(resolved)
    ids = sorted({i for e in entities for i in e.ids})
    point = dict(valid_at=valid, known_at=known, states=VISIBLE, include_undated=True, any_valid=True,
                 scope_key=None if scope is None else scope_key(scope))
    found: dict[str, Fact] = {}
    if ids:
        for f in [*fact_repo.as_of(tx, tenant, subject_ids=ids, **point),
                  *fact_repo.as_of(tx, tenant, object_ids=ids, **point),
                  *context_reads.closed(tx, tenant, ids, known, list(rules.CLOSED_KINDS))]:
            # filters before placing: scope (the reads already kept what the caller's clearance may see, DESIGN §8)
            if scope is None or f.scope == scope:
                found.setdefault(f.version_id, f)
    facts = list(found.values())
    supported = _supported(tx, tenant, facts, valid, known)
    explained = context_reads.links(tx, [f.version_id for f in facts if _may_have_ended(f, valid)], known)
    disputes = _disputes_seen(tx, tenant, facts)
    placed: list[tuple[Fact, rules.Placement]] = []
    for f in facts:
        successors, predecessor = explained.get(f.version_id, ([], None))
        link = rules.Link(*successors[-1]) if successors else None
        where = rules.place(f, valid_at=valid, supported=f.fact_id in supported, successor=link,
                            predecessor_end=predecessor, dispute_seen=f.fact_id in disputes)
        if where is not None:
            placed.append((f, where))
    # the verdicts come with the sources (one query): a package costs no round trip for them
    sources, verified = context_reads.sources(tx, [f.version_id for f, _ in placed], known)
    items = [_item(f, where, sources.get(f.version_id, []), verified.get(f.version_id)) for f, where in placed]
    return ContextPackage(
        query=query, entities=[e.name for e in entities], valid_at=valid, known_at=known,
        current=sorted((i for i in items if i.part == "current"), key=_current_order),
        historical=sorted((i for i in items if i.part == "historical"), key=_historical_order),
        open=sorted((i for i in items if i.part == "open"), key=lambda i: (OPEN_ORDER.index(i.open_kind),
                                                                          i.statement)),
    )


def named_entities(tx: Tx, tenant: str, query: str, known: datetime | None) -> list[Entity]:
    """The entities a question names: the whole text if it is a name, else its longest word runs that are names
    (or aliases), left to right, without overlaps; each resolved under the merges believed at known."""
    whole = entity_repo.find(tx, tenant, query, known)
    if whole is not None:
        return [whole]
    words = [m.group(0).rstrip(".'") for m in _WORD.finditer(query)]
    runs = {(i, j): entity_repo.normalise(" ".join(words[i:j]))
            for i in range(len(words)) for j in range(i + 1, min(len(words), i + MAX_WORDS) + 1)}
    named = context_reads.names_of_entities(tx, tenant, sorted(set(runs.values())))
    chosen: list[tuple[int, int]] = []
    for (i, j) in sorted((k for k, norm in runs.items() if norm in named), key=lambda k: (k[0] - k[1], k[0])):
        if all(j <= a or i >= b for a, b in chosen):
            chosen.append((i, j))
    found: dict[str, Entity] = {}
    for i, j in sorted(chosen):
        entity = entity_repo.find(tx, tenant, runs[(i, j)], known)
        if entity is not None:
            found.setdefault(entity.entity_id, entity)
    return list(found.values())


def _disputes_seen(tx: Tx, tenant: str, facts: list[Fact]) -> set[str]:
    """Fact ids of the conflicted versions whose conflict the caller may see (both sides: graph/facts/predicates.py
    `conflicts` lists only those); asked only when the package holds a conflicted version."""
    if not any(f.state == State.CONFLICTED for f in facts):
        return set()
    return {c.challenger.fact_id for c in conflict_repo.conflicts(tx, tenant, open_only=False)}


def _supported(tx: Tx, tenant: str, facts: list[Fact], valid: datetime, known: datetime | None) -> set[str]:
    """Fact ids among the served versions valid at the point that premises valid there support (DESIGN §5)."""
    candidates = [f for f in facts if f.known_to is None and is_served(f.state) and f.valid_from is not None
                  and f.valid_from <= valid and (f.valid_to is None or f.valid_to > valid)]
    return {f.fact_id for f in served_at(tx, tenant, candidates, valid_at=valid, known_at=known)}


def _may_have_ended(f: Fact, valid: datetime) -> bool:
    return f.known_to is not None or (f.valid_to is not None and f.valid_to <= valid)


def _item(f: Fact, where: rules.Placement, sources: list, verified: VerifiedBy | None = None) -> ContextItem:
    seen = [s.model_dump() for s in sources]  # what the reader may see of its sources decides both marks
    return ContextItem(
        **({"verification": verified.text(), "verified_by": verified} if verified else {}),
        part=where.part, statement=f.statement, fact=f, evidence=f.evidence.value, epistemic=f.epistemic.value,
        verified_at=f.verified_at, sources=sources, disputed=f.disputed,
        missing_evidence=evidence_rules.missing_evidence(f, seen), weak=evidence_rules.weak(f, seen),
        end_kind=where.end_kind,
        ended_at=where.ended_at, superseded_by=where.superseded_by, reason=where.reason, open_kind=where.open_kind,
        cause=where.cause, unknown=where.unknown)


def _current_order(i: ContextItem) -> tuple:
    return (i.fact.subject, i.fact.predicate, i.fact.valid_from.timestamp() if i.fact.valid_from else 0.0)


def _historical_order(i: ContextItem) -> tuple:
    return (-(i.ended_at.timestamp() if i.ended_at else 0.0), i.statement)
