"""Merge near-duplicate facts into one canonical fact: evidence never gets stronger, no source is dropped."""

from __future__ import annotations

from datetime import datetime

from credo.graph.facts import entities as entity_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core import ledger
from credo.graph.core.db import Tx
from credo.schema import commands as c
from credo.schema.errors import InvalidInput
from credo.schema.facts import EndKind, Epistemic, Fact, scope_key, weakest
from credo.schema.lifecycle import SERVED, State
from credo.schema.names import check_ref, clean_text
from credo.schema.time import render
from credo.services.facts import record as record_fact
from credo.schema.search import most_sensitive
from credo.services.core.context import Context
from credo.services.core.versions import retire, the_current
from credo.services.core.unit_of_work import Write


def merged_shape(inputs: list[Fact]) -> dict[str, object]:
    """Evidence, epistemic status and state of a merge: the weakest of each (pure rule)."""
    hypothesis = any(f.epistemic == Epistemic.HYPOTHESIS for f in inputs)
    served = all(State(f.state) in SERVED for f in inputs)
    return {
        "evidence": weakest([f.evidence.value for f in inputs]),
        "epistemic": Epistemic.HYPOTHESIS if hypothesis else Epistemic.CONFIRMED,
        "state": State.ACTIVE if served else State.CANDIDATE,
    }


_COARSE_FIRST = {"year": 0, "month": 1, "day": 2, "instant": 3}


def merged_interval(inputs: list[Fact]) -> tuple[str | None, str | None]:
    """The union hull of the inputs' valid intervals, as bounds at their own precision (pure rule).

    Start: the earliest start, unknown if any input's start is unknown (an unknown start may lie earlier
    than every known one). End: the latest end, open if any input is open. On equal instants the coarser
    precision wins: the merge claims no more precision than its inputs share.
    """
    starts = [(f.valid_from, f.valid_from_precision) for f in inputs]
    ends = [(f.valid_to, f.valid_to_precision) for f in inputs]
    start = None
    if all(at is not None for at, _ in starts):
        at, p = min(starts, key=lambda b: (b[0], _COARSE_FIRST.get(b[1] or "instant", 3)))
        start = render(at, p or "instant")
    end = None
    if all(at is not None for at, _ in ends):
        at, p = max(ends, key=lambda b: (b[0], -_COARSE_FIRST.get(b[1] or "instant", 3)))
        end = render(at, p or "instant")
    return start, end


def gap_between(inputs: list[Fact]) -> tuple[datetime, datetime] | None:
    """The first stretch of valid time no input covers between their earliest start and latest end, or None when
    their intervals overlap or touch (pure rule; an unknown start or an open end is unbounded on that side)."""
    spans = sorted(((f.valid_from, f.valid_to) for f in inputs), key=lambda s: (s[0] is not None, s[0] or datetime.min))
    reach = spans[0][1]
    for start, end in spans[1:]:
        if reach is not None and start is not None and start > reach:
            return reach, start
        reach = None if reach is None or end is None else max(reach, end)
    return None


def claim_of(tx: Tx, tenant: str, fact: Fact) -> tuple[str, str, tuple[str, str], str]:
    """What a fact claims: (canonical subject id, predicate, object key with entities canonical, scope key)."""
    def canonical(name: str, entity_id: str | None) -> str | None:
        entity = entity_repo.find(tx, tenant, name)
        return entity.entity_id if entity is not None and entity_id in entity.ids else entity_id

    obj = fact.object.key
    if fact.object.type == "entity":
        obj = ("entity", canonical(fact.object_name, fact.object.entity_id) or "")
    return canonical(fact.subject, fact.subject_id) or fact.subject_id, fact.predicate, obj, scope_key(fact.scope)


def _check_mergeable(tx: Tx, tenant: str, inputs: list[Fact]) -> None:
    """A merge consolidates one claim: the same subject, predicate, object and scope over one stretch of time."""
    first = claim_of(tx, tenant, inputs[0])
    for other in inputs[1:]:
        if claim_of(tx, tenant, other) != first:
            raise InvalidInput("fact_ids", f"{inputs[0].fact_id} and {other.fact_id} claim different things "
                                           f"({inputs[0].statement!r} vs {other.statement!r}); only versions of one "
                                           "claim (subject, predicate, object, scope) are merged")
    gap = gap_between(inputs)
    if gap is not None:
        raise InvalidInput("fact_ids", f"the inputs leave a gap from {gap[0].isoformat()} to {gap[1].isoformat()}; a "
                                       "merge never claims the gap between separate stints (keep them separate)")


def merge_facts(ctx: Context, cmd: c.MergeFacts) -> Fact:
    """One canonical fact from several: the inputs are superseded, their sources and premises carried over."""
    statement = cmd.statement
    fact_ids = [check_ref(ref, "fact_ids") for ref in cmd.fact_ids]  # a list (the command's type)
    if len(set(fact_ids)) < 2:
        raise InvalidInput("fact_ids", "name at least two different facts to merge")
    if not isinstance(statement, str) or not statement.strip():
        raise InvalidInput("statement", "the merged fact needs a statement")
    statement = clean_text(statement, "statement")  # size limits refused before any read

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        inputs = [the_current(tx, ctx.tenant, ref) for ref in dict.fromkeys(fact_ids)]
        _check_mergeable(tx, ctx.tenant, inputs)
        first = inputs[0]
        shape = merged_shape(inputs)
        valid_from, valid_to = merged_interval(inputs)
        retire(w, [(f, EndKind.MERGE.value, f"merged into a canonical fact ({len(inputs)} inputs)") for f in inputs])
        data = record_fact.validate(
            subject=first.subject, predicate=first.predicate,
            object=first.object_name if first.object.type == "entity" else first.object,  # a literal keeps its type
            object_is_entity=first.object.type == "entity", scope=first.scope, kind=first.kind,
            statement=statement.strip(), evidence=shape["evidence"], epistemic=shape["epistemic"],
            valid_from=valid_from, valid_to=valid_to,
            # it carries every input's sources and quotes: as sensitive as the most sensitive input
            sensitivity=most_sensitive([f.sensitivity for f in inputs]),
        )
        # written as is: no duplicate detection, so a third fact covering the claim is never reinforced and
        # returned in place of the merge with its own, possibly stronger, evidence (§3)
        merged = record_fact.record(w, ctx, [data], state=shape["state"], apply_rules=False,
                                     writer="author")[0]
        fact_repo.carry_edges(tx, known, [(f.version_id, merged.version_id) for f in inputs])
        fact_repo.link_supersedes(tx, known, [(merged.version_id, f.version_id, "merge", None) for f in inputs])
        ledger.audit(tx, ctx.tenant, known, [("merge_facts", merged.fact_id, {
            "version_id": merged.version_id, "inputs": [f.version_id for f in inputs],
            "evidence": merged.evidence.value})])
        return merged

    return ctx.write(work, embed=[statement.strip()])
