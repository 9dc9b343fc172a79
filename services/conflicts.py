"""Conflicts kept, not applied: list them, and resolve one by an explicit decision."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from credo.graph import facts as fact_repo
from credo.graph import ledger
from credo.graph import predicates as predicate_repo
from credo.graph.db import Tx
from credo.schema.errors import ConflictError, InvalidInput, NotFound
from credo.schema.facts import Conflict, EndKind, Fact
from credo.schema.lifecycle import State, check_transition
from credo.schema.time import parse_point
from credo.services.context import Context
from credo.services.versions import next_version, replace, retire

Decision = Literal["succession", "correction", "reject", "split_scope"]
DECISIONS = ("succession", "correction", "reject", "split_scope")


def conflicts(ctx: Context, *, include_resolved: bool = False) -> list[Conflict]:
    """Conflicts awaiting a decision (and resolved ones on request), oldest first."""
    return ctx.read(lambda tx: predicate_repo.conflicts(tx, ctx.tenant, open_only=not include_resolved))


def resolve_conflict(
    ctx: Context, *, conflict_id: str, decision: str, at: Any = None, scope: dict[str, str] | None = None,
    reason: str | None = None,
) -> Fact:
    """Decide a conflict explicitly; returns the challenger's resulting version.

    succession: the established value ends at `at`, the challenger holds from `at`.
    correction: the established version was wrong; the challenger replaces it.
    reject:     the challenger is rejected; the established value stays, no longer disputed.
    split_scope: the challenger holds in its own `scope`, so the two no longer overlap.
    """
    if decision not in DECISIONS:
        raise InvalidInput("decision", f"must be one of {list(DECISIONS)}", value=decision)
    at_point = parse_point(at, "at") if at is not None else None
    if decision == "succession" and at_point is None:
        raise InvalidInput("at", "a succession needs the valid time at which the value changed")
    if decision == "split_scope" and not scope:
        raise InvalidInput("scope", "split_scope needs the challenger's own scope")

    def work(tx: Tx, known: datetime) -> Fact:
        found = predicate_repo.conflicts(tx, ctx.tenant, conflict_id=conflict_id, open_only=False)
        if not found:
            raise NotFound("conflict", conflict_id)
        if any(c.status != "open" for c in found):
            raise ConflictError(conflict_id, "this conflict was already resolved")
        challenger = found[0].challenger
        if challenger.known_to is not None:
            raise ConflictError(conflict_id, "the challenger is no longer current")
        established = [c.established for c in found if c.established.known_to is None]
        check_transition(challenger.fact_id, challenger.state, State.REJECTED if decision == "reject" else State.ACTIVE)
        closing: list[tuple[Fact, str, str | None]] = [(challenger, EndKind.RESOLUTION.value, decision)]
        created: list[tuple[Fact, Fact]] = []
        links: list[tuple[str, str, str, datetime | None]] = []
        if decision == "reject":
            result = next_version(challenger, known, state=State.REJECTED.value, end_reason=reason)
        elif decision == "split_scope":
            result = next_version(challenger, known, state=State.ACTIVE.value, scope=scope, verified_at=known)
        elif decision == "correction":
            result = next_version(challenger, known, state=State.ACTIVE.value, verified_at=known)
            closing += [(e, EndKind.CORRECTION.value, reason or f"corrected by conflict {conflict_id}") for e in established]
            links += [(result.version_id, e.version_id, "correction", None) for e in established]
        else:
            point, precision = at_point
            result = next_version(challenger, known, state=State.ACTIVE.value, valid_from=point,
                                  valid_from_precision=precision, verified_at=known)
            for e in established:
                if e.valid_from is not None and point <= e.valid_from:
                    raise InvalidInput("at", f"must be after the established value's start ({e.valid_from.isoformat()})")
                ended = next_version(e, known, valid_to=point, valid_to_precision=precision, bounded_by=None)
                closing.append((e, EndKind.SUCCESSION.value, f"succeeded at {point.isoformat()} (conflict {conflict_id})"))
                created.append((e, ended))
                links += [(ended.version_id, e.version_id, "succession", point),
                          (result.version_id, ended.version_id, "succession", point)]
        retire(tx, known, closing)
        replace(tx, known, created + [(challenger, result)])
        links.append((result.version_id, challenger.version_id, "resolution", None))
        fact_repo.link_supersedes(tx, known, links)
        predicate_repo.close_conflict(tx, known, conflict_id, decision)
        ledger.audit(tx, ctx.tenant, known, [("resolve_conflict", challenger.fact_id,
                                              {"conflict_id": conflict_id, "decision": decision, "reason": reason})])
        return result

    return ctx.write(work)
