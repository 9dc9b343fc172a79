"""The belief diff's rule (pure): what happened to each belief, from the versions whose belief began or ended inside
a known window, the state flags drawn in it and the disputes opened or resolved in it.

A closed version says how it ended (`ended_by`, schema/facts.py EndKind): that is the change, and what replaced it
(the versions that SUPERSEDE it, else the versions of its fact the same write began) is its `after`. A version that
began is a change of its own only when it is its fact's first that the caller may see and supersedes no visible
version of another fact (a successor or a merge's canonical fact is named by the change of what it took over): a
fact first believed. A flag is a state change (stale with its cause, forgotten as a tombstone); a dispute first drawn
opens a conflict. Nothing of a forgotten fact's content is named: a forgotten version carries a tombstone and no
statement.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from credo.schema.diff import BeliefChange, BeliefVersion, ChangeKind, Dispute, FlagRaised, TouchedVersion
from credo.schema.facts import EndKind, Fact
from credo.schema.lifecycle import State

# how a closed version ended -> the change
ENDED_AS: dict[str, ChangeKind] = {
    EndKind.CORRECTION.value: ChangeKind.CORRECTED,
    EndKind.RANGE_WRITE.value: ChangeKind.CORRECTED,
    EndKind.SUCCESSION.value: ChangeKind.SUPERSEDED,
    EndKind.END.value: ChangeKind.ENDED,
    EndKind.RETRACTION.value: ChangeKind.RETRACTED,
    EndKind.MERGE.value: ChangeKind.MERGED,
    EndKind.RESOLUTION.value: ChangeKind.CONFLICT_RESOLVED,
    EndKind.STATE_CHANGE.value: ChangeKind.STATE_CHANGED,
}
# a flag's state -> the change (any other state: state_changed)
FLAGGED_AS: dict[str, ChangeKind] = {State.STALE.value: ChangeKind.STALE, State.FORGOTTEN.value: ChangeKind.FORGOTTEN}
_ORDER = {kind: i for i, kind in enumerate(ChangeKind)}


def version_of(fact: Fact, state: str | None = None) -> BeliefVersion:
    """A version as a change names it; a forgotten one (it carries a tombstone) by its ids alone."""
    if fact.tombstone is not None:
        return BeliefVersion(fact_id=fact.fact_id, version_id=fact.version_id)
    return BeliefVersion(fact_id=fact.fact_id, version_id=fact.version_id, statement=fact.statement,
                         object=fact.object_name, valid_from=fact.valid_from, valid_to=fact.valid_to,
                         state=state or _state(fact))


def _state(fact: Fact) -> str | None:
    return None if fact.state is None else str(getattr(fact.state, "value", fact.state))


def belief_changes(touched: Iterable[TouchedVersion], flags: Iterable[FlagRaised], disputes: Iterable[Dispute], *,
                   known_a: datetime, known_b: datetime) -> list[BeliefChange]:
    """Every change of belief in (known_a, known_b], in known-time order (one write's changes in ChangeKind order)."""
    touched, flags = list(touched), list(flags)
    inside = lambda at: at is not None and known_a < at <= known_b  # noqa: E731 - the window, said once
    began = [t for t in touched if inside(t.fact.known_from)]
    disputes = list(disputes)
    resolved_by = {d.challenger.version_id: d for d in disputes if d.resolved_at is not None}
    changes = [_closed(t, began, resolved_by) for t in touched if inside(t.fact.known_to)]
    changes += _added(began)
    changes += _flagged(flags)
    changes += _opened(d for d in disputes if d.opened_at is not None)
    # a fact forgotten in the window, or since (its versions carry a tombstone), is named by ids and times alone
    forgotten = {c.fact_id for c in changes if c.kind is ChangeKind.FORGOTTEN}
    forgotten |= {f.fact_id for f in [*(t.fact for t in touched), *(g.fact for g in flags)] if f.tombstone is not None}
    changes = [_without_content(c) if c.fact_id in forgotten else c for c in changes]
    return sorted(changes, key=lambda c: (c.at, _ORDER[c.kind], c.fact_id, c.before.version_id if c.before else ""))


def _closed(closed: TouchedVersion, began: list[TouchedVersion], resolved_by: dict[str, Dispute]) -> BeliefChange:
    """The change that ended a version's belief, with what replaced it."""
    old = closed.fact
    how = str(getattr(old.ended_by, "value", old.ended_by or ""))
    kind = ENDED_AS.get(how, ChangeKind.STATE_CHANGED)
    same_write = [t for t in began if t.fact.known_from == old.known_to]
    linked = [t for t in same_write if any(link.version_id == old.version_id for link in t.supersedes)]
    after = [t for t in linked if t.fact.fact_id == old.fact_id] or (
        [t for t in same_write if t.fact.fact_id == old.fact_id] if not linked else [])
    others = [t for t in linked if t.fact.fact_id != old.fact_id]
    if not others and kind is ChangeKind.SUPERSEDED:  # a successor supersedes the ended version of the old fact
        ended = {t.fact.version_id for t in after}
        others = [t for t in same_write if t.fact.fact_id != old.fact_id
                  and any(link.version_id in ended and link.kind == EndKind.SUCCESSION.value for link in t.supersedes)]
    dispute = resolved_by.get(old.version_id) if kind is ChangeKind.CONFLICT_RESOLVED else None
    return BeliefChange(
        kind=kind, at=old.known_to, fact_id=old.fact_id, before=version_of(old),
        after=[version_of(t.fact) for t in after], successor=version_of(others[0].fact) if others else None,
        reason=old.end_reason, conflict_id=dispute.conflict_id if dispute else None)


def _added(began: list[TouchedVersion]) -> list[BeliefChange]:
    """Facts first believed: a version whose fact shows no earlier visible version and that took over no visible
    version of another fact; a fact begun as several versions by one write is one change."""
    firsts: dict[str, list[TouchedVersion]] = {}
    for t in began:
        if t.earlier or any(link.fact_id != t.fact.fact_id for link in t.supersedes):
            continue
        group = firsts.setdefault(t.fact.fact_id, [])
        if not group or group[0].fact.known_from == t.fact.known_from:
            group.append(t)
    return [BeliefChange(kind=ChangeKind.ADDED, at=group[0].fact.known_from, fact_id=fact_id,
                         after=[version_of(t.fact) for t in group]) for fact_id, group in firsts.items()]


def _flagged(flags: Iterable[FlagRaised]) -> list[BeliefChange]:
    """State changes drawn as flags: stale (with its cause), forgotten (a tombstone: once per fact and write), or
    another state (with its reason)."""
    out: list[BeliefChange] = []
    tombstones: set[tuple[str, datetime]] = set()
    for flag in flags:
        kind = FLAGGED_AS.get(flag.state, ChangeKind.STATE_CHANGED)
        if kind is ChangeKind.FORGOTTEN:
            if (flag.fact.fact_id, flag.at) not in tombstones:
                tombstones.add((flag.fact.fact_id, flag.at))
                out.append(BeliefChange(kind=kind, at=flag.at, fact_id=flag.fact.fact_id))
            continue
        out.append(BeliefChange(kind=kind, at=flag.at, fact_id=flag.fact.fact_id,
                                after=[version_of(flag.fact, flag.state)],
                                cause=flag.cause if kind is ChangeKind.STALE else None,
                                reason=None if kind is ChangeKind.STALE else flag.reason))
    return out


def _opened(opened: Iterable[Dispute]) -> list[BeliefChange]:
    """Conflicts opened: one change per conflict, naming the challenger and every established version it disputes."""
    by_id: dict[str, list[Dispute]] = {}
    for d in opened:
        by_id.setdefault(d.conflict_id, []).append(d)
    return [BeliefChange(kind=ChangeKind.CONFLICT_OPENED, at=edges[0].opened_at, fact_id=edges[0].challenger.fact_id,
                         after=[version_of(edges[0].challenger)], conflict_id=conflict_id,
                         against=[version_of(d.established) for d in edges]) for conflict_id, edges in by_id.items()]


def _without_content(change: BeliefChange) -> BeliefChange:
    """A change of a forgotten fact with nothing of what it said: ids and times only (its stored versions lost their
    content with the forget; this holds the diff to that even for a version read before)."""
    if change.kind is ChangeKind.FORGOTTEN:
        return change
    strip = lambda v: None if v is None else BeliefVersion(fact_id=v.fact_id, version_id=v.version_id)  # noqa: E731
    return change.model_copy(update={
        "before": strip(change.before), "after": [strip(v) for v in change.after], "successor": strip(change.successor),
        "against": [strip(v) for v in change.against], "reason": None, "cause": None})
