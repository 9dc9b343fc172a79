"""Change what is believed, never in place: correct, succeed, end and retract facts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph.facts import entities as entity_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core import ledger
from credo.graph.facts import conflicts as conflict_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema import commands as c
from credo.schema.commands import given
from credo.schema.errors import ConflictError, InvalidInput
from credo.schema.facts import EndKind, Fact, ObjectValue, check_interval, check_version, literal
from credo.schema.lifecycle import SERVED, State
from credo.schema.names import check_ref, clean_name, clean_text
from credo.schema.time import optional_point
from credo.services.facts import predicates as predicate_service
from credo.services.core.clearance import bound_by, label, named
from credo.services.core.context import Context
from credo.services.core.versions import create as create_versions
from credo.services.core.versions import (believed_ids, current_versions, lost_race, next_version, replace, retire,
                                     retire_current, seen, the_current)
from credo.services.core.unit_of_work import Write
from credo.services.policy import plan as write_policy

CORRECTABLE = {"object", "valid_from", "valid_to", "statement", "scope", "confidence", "sensitivity", "kind", "quote"}


def resolve_object(tx: Tx, ctx: Context, known: datetime, value: Any) -> tuple[ObjectValue, str]:
    """(ObjectValue, display name) for an entity name or a literal."""
    if isinstance(value, ObjectValue):
        return value, value.value
    if value is None:
        raise InvalidInput("object", "name an entity or give a literal (text, number or date)")
    if isinstance(value, str):
        value = clean_name(value, "object")
        entity = entity_repo.resolve(tx, ctx.tenant, known, [value])[value]
        return ObjectValue(type="entity", value=entity.name, entity_id=entity.entity_id), entity.name
    lit = literal(value)
    return lit, lit.value


def _changed(tx: Tx, ctx: Context, known: datetime, old: Fact, changes: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(changes) - CORRECTABLE)
    if unknown:
        raise InvalidInput(unknown[0], f"cannot be corrected; correctable fields are {sorted(CORRECTABLE)}")
    update: dict[str, Any] = {}
    if "object" in changes:
        value, name = resolve_object(tx, ctx, known, changes["object"])
        update.update(object=value, object_name=name)
        if "statement" not in changes:
            update["statement"] = f"{old.subject} {old.predicate} {name}"
    if "valid_from" in changes:
        update["valid_from"], update["valid_from_precision"] = optional_point(changes["valid_from"], "valid_from")
    if "valid_to" in changes:
        update["valid_to"], update["valid_to_precision"] = optional_point(changes["valid_to"], "valid_to")
        update["bounded_by"] = None
    for name in ("statement", "scope", "confidence", "sensitivity", "kind", "quote"):
        if name in changes:
            update[name] = changes[name]
    if "sensitivity" in changes:  # never above the caller's clearance (services/core/clearance.py)
        update["sensitivity"] = label(ctx.clearance, changes["sensitivity"])
    check_interval(update.get("valid_from", old.valid_from), update.get("valid_to", old.valid_to))
    return update


# a correction of these may put the claim over another value of a single-valued slot
CLAIM_FIELDS = {"object", "valid_from", "valid_to", "scope"}


def _check_no_second_value(tx: Tx, ctx: Context, newer: Fact) -> None:
    """Refuse a correction that would serve a second value beside another fact's established one (DESIGN §4).

    A correction is an explicit act about this fact only: it may not end, bound or dispute the other one, so
    anything but admit (or the same value) is a ConflictError naming the other fact; resolve or end it first."""
    if newer.state not in SERVED:
        return
    decision = predicate_service.decide_in_slot(tx, ctx.tenant, newer)
    if decision.outcome in ("admit", "duplicate"):
        return
    other = decision.against[0] if decision.against else decision.bounded_by
    ref, holds = named(ctx.clearance, other, fallback=newer.fact_id)
    raise ConflictError(ref, f"correcting {newer.fact_id} would serve {newer.object_name!r} over a valid time where "
                             f"{holds}; resolve or end it first")


def correct_fact(ctx: Context, cmd: c.CorrectFact) -> Fact:
    """We were wrong about the past: a new version under the same fact_id; the old one stops being believed.
    Only the fields the caller set are changes."""
    ref, changes = cmd.fact_id, given(cmd, drop=("fact_id",))
    if not changes:
        raise InvalidInput("changes", "name at least one field to correct")

    before = seen(ctx, [ref])

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        with lost_race(ref, before, lambda: believed_ids(tx, ctx.tenant, [ref])):
            old = the_current(tx, ctx.tenant, ref)
            newer = check_version(next_version(old, known, verified_at=known,
                                               **_changed(tx, ctx, known, old, changes)))
        newer = newer.model_copy(update={
            "write_plan": write_policy.stamp(w, newer, newer.kind, "author")})  # the key holder's own act
        if CLAIM_FIELDS & set(changes):
            _check_no_second_value(tx, ctx, newer)
        retire(w, [(old, EndKind.CORRECTION.value, None)])
        replace(w, [(old, newer)])
        fact_repo.link_supersedes(tx, known, [(newer.version_id, old.version_id, "correction", None)])
        ledger.audit(tx, ctx.tenant, known, [("correct_fact", old.fact_id, {"old": old.version_id, "new": newer.version_id,
                                                                            "fields": sorted(changes)})])
        return newer

    return ctx.write(work, embed=[changes["statement"]] if isinstance(changes.get("statement"), str) else [])


def _check_inside(old: Fact, at_point: datetime, *, after_end: str = "") -> None:
    """A succession or an end falls strictly inside the current version's valid interval (InvalidInput on `at`)."""
    if old.valid_from is not None and at_point <= old.valid_from:
        raise InvalidInput("at", f"must be after the fact's valid_from ({old.valid_from.isoformat()})")
    if old.valid_to is not None and at_point >= old.valid_to:
        raise InvalidInput("at", f"must be before the fact's valid_to ({old.valid_to.isoformat()}){after_end}")


def succeed_fact(ctx: Context, cmd: c.SucceedFact) -> Fact:
    """The world changed at valid time `at`: the old fact ends there, a linked successor starts there."""
    ref, object, fields = cmd.fact_id, cmd.object, given(cmd, drop=("fact_id", "object", "at"))
    at_point, at_precision = cmd.at.at, cmd.at.precision
    extra = sorted(set(fields) - {"statement", "scope", "confidence", "sensitivity", "kind", "quote"})
    if extra:
        raise InvalidInput(extra[0], "is not a field a successor can set")
    if "sensitivity" in fields:  # never above the caller's clearance (services/core/clearance.py)
        fields = {**fields, "sensitivity": label(ctx.clearance, fields["sensitivity"])}

    before = seen(ctx, [ref])

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        with lost_race(ref, before, lambda: believed_ids(tx, ctx.tenant, [ref])):
            old = the_current(tx, ctx.tenant, ref)
            _check_inside(old, at_point)
        value, name = resolve_object(tx, ctx, known, object)
        ended = next_version(old, known, valid_to=at_point, valid_to_precision=at_precision, bounded_by=None)
        successor = next_version(
            old, known, fact_id=new_id("f"), object=value, object_name=name, valid_from=at_point,
            valid_from_precision=at_precision, verified_at=known, bounded_by=None,
            statement=f"{old.subject} {old.predicate} {name}" if fields.get("statement") is None else fields["statement"],
            **{k: v for k, v in fields.items() if k != "statement"},
        )
        successor = check_version(successor)
        successor = successor.model_copy(update={
            "write_plan": write_policy.stamp(w, successor, successor.kind, "author")})  # the key holder's own act
        retire(w, [(old, EndKind.SUCCESSION.value, f"succeeded at {at_point.isoformat()}")])
        replace(w, [(old, ended)])
        successor, disputes = _in_slot(tx, ctx, successor)
        create_versions(w, [successor])
        conflict_repo.open_conflicts(tx, known, disputes)
        fact_repo.link_supersedes(tx, known, [(ended.version_id, old.version_id, "succession", at_point),
                                              (successor.version_id, ended.version_id, "succession", at_point)])
        ledger.audit(tx, ctx.tenant, known, [("succeed_fact", old.fact_id, {"ended": ended.version_id,
                                                                            "successor": successor.fact_id})])
        return successor

    return ctx.write(work, embed=[fields["statement"]] if isinstance(fields.get("statement"), str) else [])


def _in_slot(tx: Tx, ctx: Context, successor: Fact) -> tuple[Fact, list[tuple[str, str, str]]]:
    """The successor after the conflict rule of its target slot, as for a new write (the old fact has already
    ended at the succession point, so it never counts): a different value it would change there keeps it as
    `conflicted` with a conflict opened; an open-ended successor before a later value is bounded at its start;
    the same value already held there refuses the succession (ConflictError naming that fact)."""
    decision = predicate_service.decide_in_slot(tx, ctx.tenant, successor)
    if decision.outcome == "duplicate":
        ref, holds = named(ctx.clearance, decision.against[0], fallback=successor.fact_id)
        raise ConflictError(ref, f"{holds} there already (the same value); end {successor.subject}'s fact instead "
                                 "of succeeding it")
    if decision.outcome == "bound":
        return successor.model_copy(update={
            "valid_to": decision.bound_to, "valid_to_precision": decision.bounded_by.valid_from_precision,
            "bounded_by": bound_by(successor.sensitivity, decision.bounded_by)}), []
    if decision.outcome == "conflict":
        conflict_id = new_id("c")
        return (successor.model_copy(update={"state": State.CONFLICTED.value}),
                [(conflict_id, successor.version_id, e.version_id) for e in decision.against])
    return successor, []


def end_fact(ctx: Context, cmd: c.EndFact) -> Fact:
    """The claim stopped holding at valid time `at` (no successor)."""
    ref, at_point, at_precision = cmd.fact_id, cmd.at.at, cmd.at.precision

    before = seen(ctx, [ref])

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        with lost_race(ref, before, lambda: believed_ids(tx, ctx.tenant, [ref])):
            old = the_current(tx, ctx.tenant, ref)
            # ending at or after the current end would serve the claim where it did not hold (a widening)
            _check_inside(old, at_point, after_end="; ending a fact never extends it")
        ended = next_version(old, known, valid_to=at_point, valid_to_precision=at_precision, bounded_by=None)
        retire(w, [(old, EndKind.END.value, f"ended at {at_point.isoformat()}")])
        replace(w, [(old, ended)])
        fact_repo.link_supersedes(tx, known, [(ended.version_id, old.version_id, "correction", at_point)])
        ledger.audit(tx, ctx.tenant, known, [("end_fact", old.fact_id, {"version_id": ended.version_id})])
        return ended

    return ctx.write(work)


def retract_fact(ctx: Context, cmd: c.RetractFact) -> list[Fact]:
    """We no longer believe it was ever true: every current version stops being believed, with the reason."""
    ref, reason = cmd.fact_id, cmd.reason
    if reason is None or (isinstance(reason, str) and not reason.strip()):
        raise InvalidInput("reason", "a retraction must say why")
    reason = clean_text(reason, "reason")

    def work(w: Write) -> list[Fact]:
        tx, known = w.tx, w.known
        named = check_ref(ref)
        if named.startswith("v_"):
            current = [v for v in current_versions(tx, ctx.tenant, named) if v.known_to is None]
            retire(w, [(v, EndKind.RETRACTION.value, reason.strip()) for v in current])
        else:  # read and closed in one statement: a retraction needs no look at the versions first
            current = retire_current(w, named, EndKind.RETRACTION.value, reason.strip())
        if not current:
            the_current(tx, ctx.tenant, ref)  # raises the precise error (nothing was closed)
        ledger.audit(tx, ctx.tenant, known, [("retract_fact", v.fact_id, {"version_id": v.version_id, "reason": reason})
                                             for v in current])
        return [v.model_copy(update={"known_to": known, "ended_by": EndKind.RETRACTION, "end_reason": reason.strip()})
                for v in current]

    return ctx.write(work)
