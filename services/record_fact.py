"""Record new claims: add_fact / add_facts (with the conflict rule) and write_range (FOR PORTION OF)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from credo.graph import entities as entity_repo
from credo.graph import facts as fact_repo
from credo.graph import ledger
from credo.graph import predicates as predicate_repo
from credo.graph.db import Tx
from credo.graph.ledger import new_id
from credo.schema.errors import InvalidInput
from credo.schema.facts import EndKind, Fact, FactCreate, ObjectValue, literal, validated
from credo.schema.lifecycle import State, check_transition
from credo.schema.names import clean_name
from credo.schema.time import parse_point
from credo.services import predicates as predicate_service
from credo.services.context import Context
from credo.services.justify import check_premises
from credo.services.justify import link_many as link_premises
from credo.services.temporal_rules import decide_write, established
from credo.services.versions import create as create_versions
from credo.services.versions import carve, next_version, replace, retire


def validate(**fields: Any) -> FactCreate:
    """Build a FactCreate, turning pydantic's errors into one InvalidInput naming the field and rule."""
    return validated(FactCreate, fields)


@dataclass
class _Planned:
    data: FactCreate
    fact: Fact
    outcome: str
    against: list[Fact]


def _object_of(data: FactCreate) -> ObjectValue | str:
    """An ObjectValue for literals, or the entity name to resolve."""
    obj = data.object
    if isinstance(obj, ObjectValue):
        return obj
    if isinstance(obj, str) and data.object_is_entity is not False:
        return clean_name(obj, "object")
    return literal(obj)


def foreseen(batch: Sequence[FactCreate]) -> list[str]:
    """The statements `record` will most likely write for a batch (its default statement uses the name as given;
    a name that resolves to another canonical name is embedded on the write's second attempt)."""
    texts = []
    for data in batch:
        if data.statement:
            texts.append(data.statement)
            continue
        try:
            obj = _object_of(data)
        except InvalidInput:
            continue
        texts.append(f"{data.subject} {data.predicate} {obj if isinstance(obj, str) else obj.value}")
    return texts


def record(
    tx: Tx, ctx: Context, known: datetime, batch: Sequence[FactCreate], *, state: str = State.ACTIVE,
    apply_rules: bool = True,
) -> list[Fact]:
    """Inside one transaction: resolve entities, apply the conflict rule, write versions; returns them in order.

    `apply_rules=False` writes every row as a new version in `state`, skipping the conflict rule and
    reinforcement: for versions that serve nothing yet (extraction candidates; the rule runs at admission)
    and for merges (which must not be folded into, or borrow the evidence of, a third fact)."""
    objects = [_object_of(d) for d in batch]
    names = [d.subject for d in batch] + [o for o in objects if isinstance(o, str)]
    resolved, created = entity_repo.resolve_created(tx, ctx.tenant, known, names)
    defined = predicate_service.registry(tx, ctx.tenant)
    ids_of = {e.entity_id: e.ids for e in resolved.values()}
    # a subject created just now has no versions yet: only the others need the conflict rule's read
    keys = sorted({(resolved[d.subject].entity_id, d.predicate) for d in batch
                   if apply_rules and resolved[d.subject].entity_id not in created})
    current_lists = fact_repo.current_for(tx, ctx.tenant, [(ids_of[s], p) for s, p in keys])
    current = dict(zip(keys, current_lists))

    planned: list[_Planned] = []
    for index, (data, obj) in enumerate(zip(batch, objects)):
        vf, vfp, vt, vtp = data.bounds()
        if isinstance(obj, str):
            entity_id, entity_name = resolved[obj].entity_id, resolved[obj].name
            value = ObjectValue(type="entity", value=entity_name, entity_id=entity_id)
        else:
            value, entity_name = obj, obj.value
        subject_id, subject_name = resolved[data.subject].entity_id, resolved[data.subject].name
        statement = data.statement or f"{subject_name} {data.predicate} {entity_name}"
        fact = Fact(
            tenant=ctx.tenant, fact_id=new_id("f"), version_id=new_id("v"), subject=subject_name,
            subject_id=subject_id, predicate=data.predicate, object=value, object_name=entity_name,
            statement=statement, quote=data.quote, scope=data.scope, kind=data.kind, evidence=data.evidence,
            epistemic=data.epistemic, confidence=data.confidence, sensitivity=data.sensitivity, state=state,
            valid_from=vf, valid_from_precision=vfp, valid_to=vt, valid_to_precision=vtp, known_from=known,
            verified_at=known,
        )
        key = (subject_id, data.predicate)
        if not apply_rules:
            planned.append(_Planned(data, fact, "unchecked", []))
            continue
        cardinality = predicate_service.lookup(defined, data.predicate).cardinality
        decision = decide_write(
            object_key=value.key, valid_from=vf, valid_to=vt, cardinality=cardinality,
            current=established(current.get(key, []), data.scope),
        )
        if decision.outcome == "bound":
            fact = fact.model_copy(update={
                "valid_to": decision.bound_to, "valid_to_precision": decision.bounded_by.valid_from_precision,
                "bounded_by": decision.bounded_by.version_id,
            })
        elif decision.outcome == "conflict":
            fact = fact.model_copy(update={"state": State.CONFLICTED.value})
        elif decision.outcome == "duplicate":
            planned.append(_Planned(data, decision.against[0], "duplicate", decision.against))
            continue
        planned.append(_Planned(data, fact, decision.outcome, decision.against))
        if fact.state in (State.ACTIVE, State.REINFORCED):
            current.setdefault(key, []).append(fact)

    create_versions(tx, [p.fact for p in planned if p.outcome != "duplicate"])
    results: list[Fact] = []
    conflicts: list[tuple[str, str, str]] = []
    events: list[tuple[str, str, dict]] = []
    for p in planned:
        if p.outcome == "duplicate":
            results.append(_reinforce(tx, known, p.fact))
            events.append(("reinforce", p.fact.fact_id, {"version_id": results[-1].version_id}))
            continue
        if p.outcome == "conflict":
            cid = new_id("c")
            conflicts += [(cid, p.fact.version_id, e.version_id) for e in p.against]
            p.fact = p.fact.model_copy(update={"disputed": False})
        events.append(("add_fact", p.fact.fact_id, {"version_id": p.fact.version_id, "outcome": p.outcome,
                                                     "bounded_by": p.fact.bounded_by}))
        results.append(p.fact)
    predicate_repo.open_conflicts(tx, known, conflicts)
    ledger.audit(tx, ctx.tenant, known, events)
    return results


def _reinforce(tx: Tx, known: datetime, fact: Fact) -> Fact:
    """A restatement of what is established reinforces it (a new version in state reinforced)."""
    if fact.state == State.REINFORCED:
        return fact
    check_transition(fact.fact_id, fact.state, State.REINFORCED)
    newer = next_version(fact, known, state=State.REINFORCED.value, verified_at=known)
    retire(tx, known, [(fact, EndKind.STATE_CHANGE.value, "reinforced by a restatement")])
    replace(tx, known, [(fact, newer)])
    return newer


def add_facts(
    ctx: Context, batch: Sequence[FactCreate], *, state: str = State.ACTIVE,
    depends_on: Sequence[list[str] | None] | None = None,
) -> list[Fact]:
    """Record many claims in one transaction (embeddings computed before it opens); `depends_on[i]` lists the
    premises of row i (one justification, drawn in the same transaction)."""
    if not batch:
        return []
    premises = [check_premises(p, "depends_on") if p else None for p in (depends_on or [])]

    def work(tx: Tx, known: datetime) -> list[Fact]:
        written = record(tx, ctx, known, batch, state=state)
        link_premises(tx, ctx, known, [([fact], refs) for fact, refs in zip(written, premises) if refs])
        return written

    return ctx.write(work, embed=foreseen(batch))


def write_range(ctx: Context, *, data: FactCreate) -> Fact:
    """A change for [valid_from, valid_to) only: overlapping versions are split, outside it they hold again."""
    if data.valid_from is None or data.valid_to is None:
        raise InvalidInput("valid_from" if data.valid_from is None else "valid_to", "a range write needs both bounds")
    start, start_p = parse_point(data.valid_from, "valid_from")
    end, end_p = parse_point(data.valid_to, "valid_to")
    data.bounds()

    def work(tx: Tx, known: datetime) -> Fact:
        ids = entity_repo.resolve(tx, ctx.tenant, known, [data.subject])[data.subject].ids
        cardinality = predicate_service.lookup(predicate_service.registry(tx, ctx.tenant), data.predicate).cardinality
        current = [f for f in fact_repo.current_for(tx, ctx.tenant, [(ids, data.predicate)])[0]
                   if f.scope == data.scope and f.state != State.CONFLICTED]
        if cardinality == "single":
            hit, _rest = carve(tx, known, current, start, end, start_p, end_p, how=EndKind.RANGE_WRITE.value,
                               why=f"range write {start.isoformat()}..{end.isoformat()}")
            ledger.audit(tx, ctx.tenant, known, [("range_split", f.fact_id, {"version_id": f.version_id}) for f in hit])
        return record(tx, ctx, known, [data])[0]

    return ctx.write(work, embed=foreseen([data]))
