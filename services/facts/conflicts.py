"""Conflicts kept, not applied: list them, and resolve one by an explicit decision."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph.core import versions as fact_repo
from credo.graph.core import ledger
from credo.graph.facts import conflicts as conflict_repo
from credo.graph.core.db import Tx
from credo.schema import commands as c
from credo.schema.errors import ConflictError, InvalidInput, NotCurrent, NotFound
from credo.schema.facts import Conflict, EndKind, Fact, Listing, check_version
from credo.schema.lifecycle import State, check_transition
from credo.schema.names import check_scope
from credo.schema.pages import After, key_parts, keyed_page
from credo.schema.time import overlaps
from credo.services.facts import predicates as predicate_service
from credo.services.preferences import drift as drift_service
from credo.services.core.clearance import bound_by, named
from credo.services.core.context import Context
from credo.services.core.versions import believed_ids, carve, lost_race, next_version, replace, retire
from credo.services.core.unit_of_work import Write



def conflicts(ctx: Context, cmd: c.ConflictsQuery, *, page: After | None = None) -> list[Conflict]:
    """Conflicts awaiting a decision (and resolved ones on request), oldest first, one entry per conflict. A `page`
    is cut in the query by key (`.next_after`)."""
    if page is None:
        return one_per_dispute(ctx.read(lambda tx: conflict_repo.conflicts(tx, ctx.tenant,
                                                                           open_only=not cmd.include_resolved)))
    after = None if page.key is None else key_parts(page, "instant", "text")
    cut = keyed_page(ctx.read(lambda tx: conflict_repo.disputes(tx, ctx.tenant, open_only=not cmd.include_resolved,
                                                                after=after, limit=page.limit + 1)),
                     page, key=lambda found: found[0])
    listing = Listing(one_per_dispute([c for _key, edges in cut for c in edges]))
    listing.next_after = cut.next_after
    return listing


def one_per_dispute(found: list[Conflict]) -> list[Conflict]:
    """One entry per conflict id (pure rule): a dispute whose established value is held by several versions (split
    by a range write, or several facts) is one conflict, shown with the first established version overlapping the
    challenger."""
    by_id: dict[str, list[Conflict]] = {}
    for c in found:
        by_id.setdefault(c.conflict_id, []).append(c)

    def pick(group: list[Conflict]) -> Conflict:
        ch = group[0].challenger
        hit = [c for c in group if overlaps(c.established.valid_from, c.established.valid_to, ch.valid_from, ch.valid_to)]
        return (hit or group)[0]

    return [pick(group) for group in by_id.values()]


def resolve_conflict(ctx: Context, cmd: c.ResolveConflict) -> Fact:
    """Decide a conflict explicitly; returns the challenger's resulting version.

    The decision acts on the versions believed now of the challenger's and the established facts (a dispute follows
    its claims through restatements, corrections and state changes), never on the versions it first recorded.

    succession: the established value ends at `at`, the challenger holds from `at`; `at` must lie inside the
                established version's valid interval (a succession never extends it) and before the challenger's
                own valid_to.
    correction: the established version was wrong; the challenger replaces it.
    reject:     the challenger is rejected; the established value stays, no longer disputed.
    split_scope: the challenger holds in its own `scope`, so the two no longer overlap. The conflict rule runs in
                the target scope as for a new write: an earlier open-ended challenger is bounded at a later value's
                start; a different value it would change there (or the same value already held there) refuses the
                split with ConflictError naming that fact, and the conflict stays open.
    """
    conflict_id, decision, scope, reason = cmd.conflict_id, cmd.decision, cmd.scope, cmd.reason  # a Decision
    at_point = None if cmd.at is None else (cmd.at.at, cmd.at.precision)
    if decision == "succession" and at_point is None:
        raise InvalidInput("at", "a succession needs the valid time at which the value changed")
    if decision == "split_scope" and not check_scope(scope):
        raise InvalidInput("scope", "split_scope needs the challenger's own scope")

    # what the caller can have seen of both sides, read before the write waits for the tenant's clock
    before = ctx.read(lambda tx: believed_ids(tx, ctx.tenant, _sides(tx, ctx.tenant, conflict_id)))

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        found = conflict_repo.conflicts(tx, ctx.tenant, conflict_id=conflict_id, open_only=False)
        if not found:
            raise NotFound("conflict", conflict_id)
        if found[0].drift is not None:  # a preference drift item: a person's decision closes it, the fact is untouched
            return drift_service.settle(w, found[0], decision, reason)
        if any(c.status != "open" for c in found):
            raise NotCurrent(conflict_id, "this conflict was already resolved")
        ids = [found[0].challenger.fact_id, *(c.established.fact_id for c in found)]
        with lost_race(conflict_id, before, lambda: believed_ids(tx, ctx.tenant, ids)):
            challenger = _current_challenger(tx, ctx.tenant, conflict_id, found[0].challenger.fact_id)
            established = _current_of(tx, ctx.tenant, [c.established.fact_id for c in found])
            check_transition(challenger.fact_id, challenger.state,
                             State.REJECTED if decision == "reject" else State.ACTIVE)
            # closed first, so the versions written below do not carry the dispute
            conflict_repo.close_conflict(tx, known, conflict_id, decision)
            closing: list[tuple[Fact, str, str | None]] = [(challenger, EndKind.RESOLUTION.value, decision)]
            created: list[tuple[Fact, Fact]] = []
            links: list[tuple[str, str, str, datetime | None]] = []
            if decision == "reject":
                result = next_version(challenger, known, state=State.REJECTED.value, end_reason=reason)
            elif decision == "split_scope":
                result = _split(tx, ctx, known, challenger, scope or {})
            elif decision == "correction":
                # the established value was wrong only where the challenger holds: outside it, it holds (range write)
                result = next_version(challenger, known, state=State.ACTIVE.value, verified_at=known)
                hit, _rest = carve(w, established, challenger.valid_from, challenger.valid_to,
                                   challenger.valid_from_precision, challenger.valid_to_precision,
                                   how=EndKind.CORRECTION.value, why=reason or f"corrected by conflict {conflict_id}")
                links += [(result.version_id, e.version_id, "correction", None) for e in hit]
            else:
                point, precision = at_point
                ending = _check_succession(point, challenger, established)
                result = next_version(challenger, known, state=State.ACTIVE.value, valid_from=point,
                                      valid_from_precision=precision, verified_at=known)
                for e in ending:
                    ended = next_version(e, known, valid_to=point, valid_to_precision=precision, bounded_by=None)
                    closing.append((e, EndKind.SUCCESSION.value,
                                    f"succeeded at {point.isoformat()} (conflict {conflict_id})"))
                    created.append((e, ended))
                    links += [(ended.version_id, e.version_id, "succession", point),
                              (result.version_id, ended.version_id, "succession", point)]
        retire(w, closing)
        replace(w, created + [(challenger, result)])
        links.append((result.version_id, challenger.version_id, "resolution", None))
        fact_repo.link_supersedes(tx, known, links)
        ledger.audit(tx, ctx.tenant, known, [("resolve_conflict", challenger.fact_id,
                                              {"conflict_id": conflict_id, "decision": decision, "reason": reason})])
        return result

    return ctx.write(work)


def _sides(tx: Tx, tenant: str, conflict_id: str) -> list[str]:
    """The fact ids of a conflict's challenger and established side (none for an unknown conflict)."""
    found = conflict_repo.conflicts(tx, tenant, conflict_id=conflict_id, open_only=False)
    return [c.challenger.fact_id for c in found[:1]] + [c.established.fact_id for c in found]


def _current_of(tx: Tx, tenant: str, fact_ids: list[str]) -> list[Fact]:
    """The versions believed now of each fact (a fact retracted meanwhile has none)."""
    seen: dict[str, Fact] = {}
    for fact_id in dict.fromkeys(fact_ids):
        for v in fact_repo.versions_of(tx, tenant, fact_id):
            if v.known_to is None:
                seen[v.version_id] = v
    return list(seen.values())


def _current_challenger(tx: Tx, tenant: str, conflict_id: str, fact_id: str) -> Fact:
    """The challenger's one version believed now; refused when it has none or several."""
    current = _current_of(tx, tenant, [fact_id])
    if not current:
        raise NotCurrent(conflict_id, "the challenger is no longer current")
    if len(current) > 1:
        raise NotCurrent(conflict_id, f"the challenger {fact_id} has {len(current)} current versions")
    return current[0]


def _check_succession(point: datetime, challenger: Fact, established: list[Fact]) -> list[Fact]:
    """The established versions the succession ends: those the challenger would overlap from `point` on. The point
    lies inside each of them (a succession never extends one) and before the challenger ends; established versions
    wholly before the point (e.g. the earlier piece of a range-split value) are left as they are."""
    if challenger.valid_to is not None and point >= challenger.valid_to:
        raise InvalidInput("at", f"must be before the challenger's own end ({challenger.valid_to.isoformat()})")
    ending = [e for e in established if overlaps(point, challenger.valid_to, e.valid_from, e.valid_to)]
    if established and not ending:
        last = max(e.valid_to for e in established if e.valid_to is not None)
        raise InvalidInput("at", f"must be before the established value's end ({last.isoformat()}); "
                                 "a succession never extends it")
    for e in ending:
        if e.valid_from is not None and point <= e.valid_from:
            raise InvalidInput("at", f"must be after the established value's start ({e.valid_from.isoformat()})")
    return ending


def _split(tx: Tx, ctx: Context, known: datetime, challenger: Fact, scope: dict[str, str]) -> Fact:
    """The challenger's version in `scope`, after the conflict rule against what that scope holds."""
    outcome = predicate_service.decide_in_slot(tx, ctx.tenant, challenger, scope=scope)
    if outcome.outcome in ("conflict", "duplicate"):
        ref, holds = named(ctx.clearance, outcome.against[0], fallback=challenger.fact_id)
        what = "(the same value)" if outcome.outcome == "duplicate" else "(another value)"
        raise ConflictError(ref, f"in scope {scope}, {holds} {what} over the challenger's valid time; resolve or end "
                                 "it first, or reject the challenger")
    update: dict[str, Any] = {}
    if outcome.outcome == "bound":
        update = {"valid_to": outcome.bound_to, "valid_to_precision": outcome.bounded_by.valid_from_precision,
                  "bounded_by": bound_by(challenger.sensitivity, outcome.bounded_by)}
    return check_version(next_version(challenger, known, state=State.ACTIVE.value, scope=scope, verified_at=known,
                                      **update))
