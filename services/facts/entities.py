"""Merge two entities reversibly (the merged name becomes an alias) and undo it."""

from __future__ import annotations

from collections.abc import Callable

from credo.graph.facts import entities as entity_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core import ledger
from credo.graph.core.db import Tx
from credo.schema import commands as c
from credo.schema.entities import Entity
from credo.schema.errors import ConflictError, InvalidInput, NotFound
from credo.schema.facts import Fact
from credo.schema.lifecycle import SERVED, SERVED_VALUES
from credo.schema.names import clean_name
from credo.schema.time import overlaps
from credo.services.facts import predicates as predicate_service
from credo.services.core.clearance import check_target
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write


def _find(tx: Tx, tenant: str, name: str, field: str) -> Entity:
    found = entity_repo.find(tx, tenant, clean_name(name, field))
    if found is None:
        raise NotFound("entity", name)
    return found


def merge_clashes(
    kept: list[Fact], merged: list[Fact], cardinality: Callable[[str], str]
) -> list[tuple[Fact, Fact]]:
    """(keeper's version, merged entity's version) pairs a merge would serve side by side against the conflict
    rule: both believed now and served, same single-valued predicate and scope, overlapping valid time,
    different object."""
    def live(facts: list[Fact]) -> list[Fact]:
        return [f for f in facts if f.known_to is None and f.state in SERVED]

    return [
        (k, m)
        for k in live(kept) for m in live(merged)
        if k.predicate == m.predicate and cardinality(k.predicate) == "single" and k.scope == m.scope
        and k.object.key != m.object.key and overlaps(k.valid_from, k.valid_to, m.valid_from, m.valid_to)
    ]


def _describe(fact: Fact) -> str:
    start = fact.valid_from.date().isoformat() if fact.valid_from else "an unknown time"
    end = fact.valid_to.date().isoformat() if fact.valid_to else "open"
    return f"{fact.subject} {fact.predicate} {fact.object_name} [{start}, {end}) (fact {fact.fact_id})"


def merge_entities(ctx: Context, cmd: c.MergeEntities) -> Entity:
    """Merge `other` into `keep`: reads of `keep` include `other`'s facts; `other`'s name becomes an alias.

    The merge is a known-time event: reads at an earlier known time still see two entities, and after an
    unmerge reads at a known time while merged still see one. A merge that would serve two different values of
    a single-valued predicate (same scope, overlapping valid time) is refused with ConflictError naming each
    clash, and nothing is written: retract, correct or succeed one of the facts first, then merge.
    """

    keep, other = cmd.keep, cmd.other

    def work(w: Write) -> Entity:
        tx, known = w.tx, w.known
        kept, merged = _find(tx, ctx.tenant, keep, "keep"), _find(tx, ctx.tenant, other, "other")
        # a merge changes how every fact about both reads: each must be within the caller's clearance
        check_target(tx, ctx.tenant, kept.entity_id, "entity", name=keep)
        check_target(tx, ctx.tenant, merged.entity_id, "entity", name=other)
        if kept.entity_id == merged.entity_id:
            raise InvalidInput("other", f"{other!r} already resolves to {kept.name!r}")
        defined = predicate_service.registry(tx, ctx.tenant)
        believed = {
            e.entity_id: fact_repo.as_of(tx, ctx.tenant, subject_ids=e.ids, valid_at=known, known_at=None,
                                         states=list(SERVED_VALUES), include_undated=True, any_valid=True)
            for e in (kept, merged)
        }
        clashes = merge_clashes(believed[kept.entity_id], believed[merged.entity_id],
                                lambda p: predicate_service.lookup(defined, p).cardinality)
        if clashes:
            raise ConflictError(
                f"merge of {merged.name!r} into {kept.name!r}",
                "; ".join(f"{_describe(m)} contradicts {_describe(k)}" for k, m in clashes)
                + " — retract, correct or succeed one of them first",
            )
        entity_repo.merge(tx, known, kept.entity_id, merged.entity_id)
        ledger.audit(tx, ctx.tenant, known, [("merge_entities", kept.entity_id, {"other": merged.entity_id})])
        return entity_repo.find(tx, ctx.tenant, kept.name)

    return ctx.write(work)


def unmerge_entities(ctx: Context, cmd: c.UnmergeEntities) -> Entity:
    """Undo a merge: `other` is its own entity again and leaves the keeper's aliases."""

    other = clean_name(cmd.other, "other")

    def work(w: Write) -> Entity:
        tx, known = w.tx, w.known
        entity = entity_repo.own(tx, ctx.tenant, other)
        if entity is None:
            raise NotFound("entity", other)
        check_target(tx, ctx.tenant, entity.entity_id, "entity", name=other)
        keeper = entity_repo.unmerge(tx, known, entity.entity_id)
        if keeper is None:
            raise InvalidInput("other", f"{other!r} is not merged into another entity")
        ledger.audit(tx, ctx.tenant, known, [("unmerge_entities", entity.entity_id, {"from": keeper})])
        return entity

    return ctx.write(work)
