"""Record new claims: add_fact / add_facts (with the conflict rule) and write_range (FOR PORTION OF)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from credo.graph.core import clearance as clearance_repo
from credo.graph.facts import entities as entity_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core import ledger
from credo.graph.facts import conflicts as conflict_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema import commands as c
from credo.schema.commands import fields_of
from credo.schema.errors import ConflictError, InvalidInput
from credo.schema.facts import (
    STATE_VALUES, EndKind, Epistemic, Fact, FactCreate, ObjectValue, literal, scope_key, validated,
)
from credo.schema.lifecycle import SERVED_VALUES, State
from credo.schema.entities import Entity
from credo.schema.names import clean_name, visible
from credo.services.facts import dedup
from credo.services.facts import evidence_rules
from credo.services.facts import predicates as predicate_service
from credo.services.core.clearance import bound_by, labelled, uncarved
from credo.services.core.context import Context
from credo.services.truth.premises import check_premises
from credo.services.truth.premises import link_many as link_premises
from credo.services.facts.rules import Held, decide_write, established
from credo.services.core.versions import create as create_versions
from credo.services.core.versions import carve
from credo.services.core.unit_of_work import Write
from credo.services.policy import plan as write_policy


def validate(**fields: Any) -> FactCreate:
    """Build a FactCreate, turning pydantic's errors into one InvalidInput naming the field and rule."""
    return validated(FactCreate, fields)


@dataclass
class _Planned:
    data: FactCreate
    fact: Fact | None  # None: a stored version restated, read whole before the write
    outcome: str
    against: list[Any]
    alias: str | None = None  # the statement a near-duplicate joins its canonical fact with
    source_of: str | None = None  # set when it restates a version planned by this batch (that version's id)
    own: Fact | None = None  # the version it would be as a claim of its own (a restatement of a hidden version)


def object_of(data: FactCreate) -> ObjectValue | str:
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
            obj = object_of(data)
        except InvalidInput:
            continue
        texts.append(f"{data.subject} {data.predicate} {obj if isinstance(obj, str) else obj.value}")
    return texts


def record(
    w: Write, ctx: Context, batch: Sequence[FactCreate], *, state: str = State.ACTIVE,
    apply_rules: bool = True, sources: Sequence[dedup.SourceRef | None] | None = None, writer: str = "gate",
    awaiting: str | None = None,
) -> list[Fact]:
    """Inside one transaction: resolve entities, dedup, apply the conflict rule, write versions; returns them in
    order. `sources[i]` (source id, quote, span) is where row i was stated: linked as SOURCED_FROM and counted
    among the claim's independent sources.

    A semantic text claim restating an established one in other words joins it as an alias (services/dedup), an
    exact restatement reinforces it; neither is a new fact. An episodic row (kind "episodic") is always a new fact:
    no dedup, no conflict rule (services/episodic). `apply_rules=False` writes every row as a new version
    in `state`, skipping dedup, the conflict rule and reinforcement: for versions that serve nothing yet
    (extraction candidates; the rule runs at admission) and for merges (which must not be folded into, or borrow
    the evidence of, a third fact). `writer` says who writes (services/policy/rules.py WRITERS: "author" for a key
    holder's own write); `awaiting` marks versions that wait for a person's decision (a surfaced write: "consent")."""
    tx, known = w.tx, w.known
    apply_rules = apply_rules and ctx.governance.conflict_rule
    batch = labelled(ctx.clearance, batch)  # what the caller may label (services/core/clearance.py)
    state_value = str(state)
    if state_value not in STATE_VALUES:
        raise ValueError(f"unknown lifecycle state {state_value!r}")
    objects = [object_of(d) for d in batch]
    defined = predicate_service.registry(tx, ctx.tenant)
    resolved, made, current = _resolve(tx, ctx, known, batch, objects, defined, apply_rules)
    created = {e["entity_id"] for e in made}
    made_values: dict[str, tuple[ObjectValue, str]] = {}  # an entity named by many rows gets one (frozen) value
    values = [_value(obj, resolved, made_values) for obj in objects]
    pool = dedup.pool(tx, ctx.tenant, [(d, v, resolved[d.subject]) for d, (v, _n) in zip(batch, values)],
                      created, w.vectors) if apply_rules else {}
    planned_facts: dict[str, Fact] = {}  # versions planned by this batch that later rows may meet as established

    planned: list[_Planned] = []
    for i, (data, (value, entity_name)) in enumerate(zip(batch, values)):
        vf, vfp, vt, vtp = data.bounds()
        subject_id, subject_name = resolved[data.subject].entity_id, resolved[data.subject].name
        statement = data.statement or f"{subject_name} {data.predicate} {entity_name}"
        # an operational rule is written with no direct source (a row's source is a message): held as a hypothesis
        epistemic, hold = evidence_rules.held(data.epistemic, operational=data.operational)
        # every field comes from a validated FactCreate, a resolved entity or the store itself: no second validation
        fact = Fact.trusted(
            tenant=ctx.tenant, fact_id=new_id("f"), version_id=new_id("v"), subject=subject_name,
            subject_id=subject_id, predicate=data.predicate, object=value, object_name=entity_name,
            statement=statement, quote=data.quote, scope=data.scope, kind=data.kind, evidence=data.evidence,
            epistemic=epistemic, confidence=data.confidence, sensitivity=data.sensitivity, state=state_value,
            valid_from=vf, valid_from_precision=vfp, valid_to=vt, valid_to_precision=vtp, known_from=known,
            verified_at=known, independent_sources=1 if dedup.source_at(sources, i) else 0,
            operational=data.operational, evidence_hold=hold, awaiting=awaiting,
            write_plan=write_policy.stamp(w, data, data.kind, writer),  # DESIGN §9: refused when it earns no slot
        )
        key = (subject_id, data.predicate)
        # an episode says what happened: append-only, it never joins, reinforces or conflicts with another (DESIGN §9)
        if not apply_rules or data.kind == "episodic":
            planned.append(_Planned(data, fact, "unchecked", []))
            continue
        pool_key = (subject_id, data.predicate, scope_key(data.scope))
        joined = dedup.find(w, pool, pool_key, data, value, statement)
        if joined is not None and joined.statement != statement:
            planned.append(_Planned(data, planned_facts.get(joined.version_id), "alias", [joined], statement))
            continue
        cardinality = predicate_service.lookup(defined, data.predicate).cardinality
        decision = decide_write(
            object_key=value.key, valid_from=vf, valid_to=vt, cardinality=cardinality,
            current=established(current.get(key, []), data.scope),
        )
        if decision.outcome == "bound":
            fact = fact.model_copy(update={
                "valid_to": decision.bound_to, "valid_to_precision": decision.bounded_by.valid_from_precision,
                "bounded_by": bound_by(fact.sensitivity, decision.bounded_by),
            })
        elif decision.outcome == "conflict":
            fact = fact.model_copy(update={"state": State.CONFLICTED.value})
        elif decision.outcome == "duplicate":
            planned.append(_Planned(data, planned_facts.get(decision.against[0].version_id), "duplicate",
                                    decision.against, own=fact))
            continue
        planned.append(_Planned(data, fact, decision.outcome, decision.against))
        if fact.state in (State.ACTIVE, State.REINFORCED):
            current.setdefault(key, []).append(Held.of(fact))
            planned_facts[fact.version_id] = fact
            dedup.offer(w, pool, pool_key, fact)

    # a restated stored version is read whole only now, to reinforce it (a flag) or write its joined copy
    restated = ("duplicate", "alias")
    targets = [p.against[0].version_id for p in planned if p.outcome in restated and p.fact is None]
    stored = fact_repo.versions_by_ids(tx, ctx.tenant, targets)  # only those the caller may see
    hidden = set(targets) - set(stored)
    hidden -= clearance_repo.visible_versions(tx, ctx.tenant, sorted(hidden)) if hidden else set()
    for p in planned:
        # an exact restatement of a version above the caller's clearance is a claim of its own for the caller: it
        # never joins (and so never reads, returns or relabels) what the caller may not see
        if p.outcome == "duplicate" and p.fact is None and p.against[0].version_id in hidden:
            p.fact, p.outcome, p.against = p.own, "admit", []
    fresh = {p.fact.version_id: p for p in planned if p.outcome not in restated}
    joins: dict[str, dedup.Join] = {}
    for i, p in enumerate(planned):
        if p.outcome not in restated:
            continue
        target = p.against[0].version_id
        if p.fact is not None:  # it restates a version planned by this batch: fold it in before it is written
            fresh[target].fact = dedup.fold_in(fresh[target].fact, p.data, p.alias,
                                               vouched=dedup.vouched(p.data, dedup.source_at(sources, i)))[0]
            p.source_of = target
            continue
        if target not in stored:  # its row fails validation: refuse, writing nothing
            raise ConflictError(target, "this restates a stored version that is unreadable; repair it first")
        dedup.group(joins, stored[target], p.data, p.alias, dedup.source_at(sources, i))
    create_versions(w, [p.fact for p in fresh.values()], made)
    now_held = dedup.settle(w, list(joins.values()),
                            [(p.fact, dedup.source_at(sources, i)) for i, p in enumerate(planned)
                             if p.outcome not in restated or p.source_of])
    results: list[Fact] = []
    conflicts: list[tuple[str, str, str]] = []
    listed: list[dict[str, Any]] = []
    for p in planned:
        if p.outcome in restated:
            target = p.against[0].version_id
            results.append(fresh[target].fact if p.source_of else now_held[target])
            listed.append({"fact_id": results[-1].fact_id, "version_id": results[-1].version_id,
                           "outcome": _restated_outcome(stored.get(target), results[-1], p.alias)})
            continue
        if p.outcome == "conflict":
            cid = new_id("c")
            conflicts += [(cid, p.fact.version_id, e.version_id) for e in p.against]
            p.fact = p.fact.model_copy(update={"disputed": False})
        listed.append({"fact_id": p.fact.fact_id, "version_id": p.fact.version_id, "outcome": p.outcome,
                       "bounded_by": p.fact.bounded_by})
        results.append(p.fact)
    conflict_repo.open_conflicts(tx, known, conflicts)
    # one ledger entry per batch, listing every fact it recorded (a per-fact row was a measurable part of ingest)
    ledger.audit(tx, ctx.tenant, known, [("add_facts", results[0].fact_id if len(results) == 1 else None,
                                          {"facts": listed})])
    return results


def _restated_outcome(before: Fact | None, after: Fact, alias: str | None) -> str:
    """What a restatement did, for the ledger: questioned, confirmed, joined (as an alias) or reinforced."""
    if after.state == State.STALE:
        return "questioned"
    if before is not None and before.epistemic == Epistemic.HYPOTHESIS and after.epistemic == Epistemic.CONFIRMED:
        return "confirmed"
    return "joined" if alias is not None else "reinforced"


def _value(obj: ObjectValue | str, resolved: dict[str, Any],
           made: dict[str, tuple[ObjectValue, str]]) -> tuple[ObjectValue, str]:
    """The object as stored (entities by their resolved id) and its display name; `made` keeps those built."""
    if isinstance(obj, str):
        found = made.get(obj)
        if found is None:
            entity = resolved[obj]
            found = made[obj] = (ObjectValue.model_construct(type="entity", value=entity.name,
                                                             entity_id=entity.entity_id), entity.name)
        return found
    return obj, obj.value


def _resolve(
    tx: Tx, ctx: Context, known: datetime, batch: Sequence[FactCreate], objects: list[ObjectValue | str],
    defined: Any, apply_rules: bool,
) -> tuple[dict[str, Entity], list[dict[str, Any]], dict[tuple[str, str], list[Held]]]:
    """One read under the tenant's clock: every name's entity (a name no entity has gets a new one, created with the
    versions: `made`), and what the conflict rule must respect, per (subject id, predicate): every served version
    believed now of a single-valued predicate, only the same object's for a multi-valued one (it can only be a
    duplicate); a subject no entity had yet has no versions, so it is not read at all."""
    names = [d.subject for d in batch] + [o for o in objects if isinstance(o, str)]
    norm_of = {n: entity_repo.normalise(n) for n in dict.fromkeys(names)}
    unique = {norm_of[n]: visible(n).strip() for n in names}
    norms = list(unique)
    position = {n: i for i, n in enumerate(norms)}
    asks: dict[tuple[int, str, tuple[str, str, int | None] | None], None] = {}
    if apply_rules:
        for data, obj in zip(batch, objects):
            multi = predicate_service.lookup(defined, data.predicate).cardinality == "multi"
            target = None
            if multi:
                target = (("entity", "", position[norm_of[obj]]) if isinstance(obj, str)
                          else (obj.type, obj.value, None))
            asks[(position[norm_of[data.subject]], data.predicate, target)] = None
    keys = list(asks)
    found, held = fact_repo.names_and_held(tx, ctx.tenant, norms, keys, SERVED_VALUES)
    by_norm: dict[str, Entity] = {}
    made: list[dict[str, Any]] = []
    for norm, row in zip(norms, found):
        if row["entity_id"] is None:
            row = {"entity_id": new_id("e"), "name": unique[norm]}
            made.append({"norm": norm, "name": row["name"], "entity_id": row["entity_id"], "kind": None,
                         "created_at": known.isoformat()})
            row["ids"] = [row["entity_id"]]
        by_norm[norm] = Entity(entity_id=row["entity_id"], name=row["name"], ids=row["ids"])
    resolved = {n: by_norm[norm_of[n]] for n in names}
    # two names of one entity (an alias) ask twice for the same versions: each version is held once
    slots: dict[tuple[str, str], dict[str, Held]] = {}
    for (subject_at, predicate, _obj), rows in zip(keys, held):
        slot = slots.setdefault((by_norm[norms[subject_at]].entity_id, predicate), {})
        for row in rows:
            slot.setdefault(row[1], Held(*row[:8], sensitivity=row[8]))
    return resolved, made, {key: list(slot.values()) for key, slot in slots.items()}


def add_facts(
    ctx: Context, batch: Sequence[FactCreate], *, state: str = State.ACTIVE,
    depends_on: Sequence[list[str] | None] | None = None,
) -> list[Fact]:
    """Record many claims in one transaction (embeddings computed before it opens); `depends_on[i]` lists the
    premises of row i (one justification, drawn in the same transaction)."""
    if not batch:
        return []
    premises = [check_premises(p, "depends_on") if p else None for p in (depends_on or [])]

    def work(w: Write) -> list[Fact]:
        tx, known = w.tx, w.known
        written = record(w, ctx, batch, state=state, writer="author")
        link_premises(tx, ctx, known, [([fact], refs) for fact, refs in zip(written, premises) if refs])
        return written

    return ctx.write(work, embed=foreseen(batch))


def add_fact(ctx: Context, cmd: c.AddFact) -> Fact:
    """Record one claim; its premises (`depends_on`, one justification) are drawn in the same transaction."""
    return add_facts(ctx, [cmd.create()], depends_on=[cmd.depends_on or None])[0]


def add_rows(ctx: Context, cmd: c.AddFacts) -> list[Fact]:
    """Record many claims in one transaction; row i's `depends_on` is its one justification."""
    return add_facts(ctx, [row.create() for row in cmd.rows], depends_on=[row.depends_on or None for row in cmd.rows])


def write_range(ctx: Context, cmd: c.WriteRange) -> Fact:
    """A change for [valid_from, valid_to) only: overlapping versions are split, outside it they hold again."""
    data = validate(**{**fields_of(cmd), "scope": cmd.scope or {}})
    start, start_p, end, end_p = data.bounds()  # both bounds are required by the command

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        ids = entity_repo.resolve(tx, ctx.tenant, known, [data.subject])[data.subject].ids
        cardinality = predicate_service.lookup(predicate_service.registry(tx, ctx.tenant), data.predicate).cardinality
        current = [f for f in fact_repo.current_for(tx, ctx.tenant, [(ids, data.predicate)],
                                                    episodic=data.kind == "episodic")[0]
                   if f.scope == data.scope and f.state != State.CONFLICTED]
        if cardinality == "single":
            uncarved(ctx.clearance, current, start, end)
            hit, _rest = carve(w, current, start, end, start_p, end_p, how=EndKind.RANGE_WRITE.value,
                               why=f"range write {start.isoformat()}..{end.isoformat()}")
            ledger.audit(tx, ctx.tenant, known, [("range_split", f.fact_id, {"version_id": f.version_id}) for f in hit])
        return record(w, ctx, [data], writer="author")[0]

    return ctx.write(work, embed=foreseen([data]))
