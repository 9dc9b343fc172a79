"""The transition check's rule (pure): from the ledger events of a known window, the belief diff of that window
and the grounding of the versions they name, judge coverage, preservation and faithfulness (DESIGN.md §11).

- **Coverage**: each event names what its write asked to change (`asked`): a version begun or shown in a new state
  at the write's known time, a version that stopped being believed (and how), a fact changed, a conflict resolved.
  Each must show in the diff at the event's known time. A write that only restated a stored version (add_facts'
  reinforced / joined / confirmed / questioned, a remember that returned a version believed before) asked no change.
- **Preservation**: each change of the diff must be explained by an event of its known time (one write) that names
  one of its ids (the fact, a version before or after it, its successor, the versions it disputes, its conflict):
  a write's own change, and its cascade (the cascade's event lists every version it flagged), are named so.
- **Faithfulness**: each version that brought content (added, corrected, a merge's or a succession's new fact, a
  challenger) has a quote, a source or an acceptance behind it; otherwise it is ungrounded (an operator's direct
  write), a failure only when `strict`.

Only what the caller may see is judged: a change at a known time where a write the caller may not see was made is
not held against preservation (it is withheld, as are the hidden events and versions themselves).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from credo.schema.diff import BeliefChange, BeliefVersion, ChangeKind
from credo.schema.transition import (DimensionReport, FindingKind, Grounding, TransitionFinding, TransitionReport,
                                     WindowEvent)

RESTATED = frozenset({"reinforced", "joined", "confirmed", "questioned"})
"""add_facts outcomes that restate a stored version: no change of belief was asked."""
MAY_RESTATE = frozenset({"add_facts", "remember"})
"""Operations whose version may be one believed before (a restatement returns it)."""
STATE_ACTS = frozenset({"admit", "reject", "accept", "end_fact", "deprecate", "quarantine", "release"})
"""Operations whose detail's `version_id` is the version shown, at the write, in its new state or bounds."""
BROUGHT_CONTENT = frozenset({ChangeKind.ADDED, ChangeKind.CORRECTED, ChangeKind.CONFLICT_OPENED})
TOOK_OVER = frozenset({ChangeKind.MERGED, ChangeKind.SUPERSEDED})


@dataclass(frozen=True)
class Asked:
    """One change a write asked for: `shown` a version at the write, `ended` a version (as `how`), or `fact` any
    change of a fact (of kind `how`, when given), or `conflict` one resolved."""

    what: str  # "shown" | "ended" | "fact" | "conflict"
    id: str
    how: frozenset[ChangeKind] = frozenset()
    fact_id: str | None = None

    def text(self) -> str:
        """The asked change in words, for a finding."""
        kinds = "/".join(sorted(k.value for k in self.how)) or "any"
        return {"shown": f"version {self.id} believed from this write",
                "ended": f"version {self.id} no longer believed ({kinds})",
                "fact": f"fact {self.id} changed ({kinds})",
                "conflict": f"conflict {self.id} resolved"}[self.what]


def _ids(detail: dict[str, Any], key: str) -> list[str]:
    value = detail.get(key)
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def asked(event: WindowEvent) -> list[Asked]:
    """What the write of `event` asked to change (empty: an event this check does not judge, e.g. a citation)."""
    d, op, subject = event.detail, event.operation, event.subject_id
    if op == "add_facts":
        return [Asked("shown", row["version_id"], fact_id=row.get("fact_id")) for row in d.get("facts") or []
                if isinstance(row, dict) and isinstance(row.get("version_id"), str) and row.get("outcome") not in RESTATED]
    if op in ("remember", "merge_facts") or op in STATE_ACTS or (op == "reverify" and d.get("outcome") != "retracted"):
        out = [Asked("shown", v, fact_id=subject) for v in _ids(d, "version_id")]
        if op == "merge_facts":
            out += [Asked("ended", v, frozenset({ChangeKind.MERGED})) for v in _ids(d, "inputs")]
        return out
    if op == "correct_fact":
        return ([Asked("ended", v, frozenset({ChangeKind.CORRECTED})) for v in _ids(d, "old")]
                + [Asked("shown", v, fact_id=subject) for v in _ids(d, "new")])
    if op == "succeed_fact":
        return ([Asked("shown", v, fact_id=subject) for v in _ids(d, "ended")]
                + [Asked("fact", f) for f in _ids(d, "successor")])
    if op == "retract_fact":
        return [Asked("ended", v, frozenset({ChangeKind.RETRACTED})) for v in _ids(d, "version_id")]
    if op == "reverify" and subject:
        return [Asked("fact", subject, frozenset({ChangeKind.RETRACTED}))]
    if op == "resolve_conflict":
        return [Asked("conflict", c, fact_id=subject) for c in _ids(d, "conflict_id")]
    if op == "extract":
        return [Asked("fact", f) for f in _ids(d, "facts")]
    if op == "cascade":
        return [Asked("fact", row["fact_id"], frozenset({ChangeKind.STALE})) for row in d.get("facts") or []
                if isinstance(row, dict) and isinstance(row.get("fact_id"), str)]
    if op == "forget" and subject and subject.startswith("f_"):
        return [Asked("fact", subject, frozenset({ChangeKind.FORGOTTEN}))]
    return []


def _versions(change: BeliefChange) -> list[BeliefVersion]:
    return [v for v in (change.before, change.successor, *change.after, *change.against) if v is not None]


def change_ids(change: BeliefChange) -> set[str]:
    """Every id a change names: its fact, its conflict, and each version (and that version's fact) it names."""
    ids = {change.fact_id} | ({change.conflict_id} if change.conflict_id else set())
    for v in _versions(change):
        ids |= {v.fact_id, v.version_id}
    return ids


def _met(want: Asked, at: datetime, changes: list[BeliefChange], known_from: dict[str, datetime], *,
         may_restate: bool) -> bool:
    here = [c for c in changes if c.at == at]
    if want.what == "shown":
        if any(v.version_id == want.id for c in here for v in (c.successor, *c.after) if v is not None):
            return True
        began = known_from.get(want.id)  # a restatement returns a version believed before: it asked no change
        return may_restate and began is not None and began < at
    if want.what == "ended":
        return any(c.before is not None and c.before.version_id == want.id and (not want.how or c.kind in want.how)
                   for c in here)
    if want.what == "conflict":
        return any(c.kind is ChangeKind.CONFLICT_RESOLVED and (c.conflict_id == want.id or c.fact_id == want.fact_id)
                   for c in here)
    # a fact changed: the change's own, or the fact that took over (a succession's successor, a merge's new fact)
    return any(want.id in {c.fact_id, *(x.fact_id for x in (c.successor, *c.after) if x is not None)}
               and (not want.how or c.kind in want.how) for c in here)


def coverage(events: list[WindowEvent], changes: list[BeliefChange],
             known_from: dict[str, datetime]) -> DimensionReport:
    """Each asked change shows in the diff at its write's known time."""
    findings, checked = [], 0
    for event in events:
        for want in asked(event):
            checked += 1
            if not _met(want, event.at, changes, known_from, may_restate=event.operation in MAY_RESTATE):
                findings.append(TransitionFinding(
                    kind=FindingKind.MISSING, at=event.at, event_id=event.event_id, operation=event.operation,
                    fact_id=want.fact_id or (want.id if want.what == "fact" else event.subject_id),
                    version_id=want.id if want.what in ("shown", "ended") else None,
                    why=f"{event.operation} asked for {want.text()}; the belief diff does not show it"))
    return DimensionReport(ok=not findings, checked=checked, findings=findings)


def preservation(events: list[WindowEvent], changes: list[BeliefChange],
                 hidden_at: Iterable[datetime]) -> tuple[DimensionReport, int]:
    """Each change is named by an event of its known time; (the report, how many changes were left unjudged
    because a write the caller may not see was made at their known time)."""
    named: dict[datetime, set[str]] = {}
    for event in events:
        named.setdefault(event.at, set()).update(event.ids, [event.subject_id] if event.subject_id else [])
    hidden, findings, unjudged = set(hidden_at), [], 0
    for change in changes:
        if change_ids(change) & named.get(change.at, set()):
            continue
        if change.at in hidden:
            unjudged += 1
            continue
        why = ("no ledger event was written at its known time: it changed outside any write"
               if change.at not in named else "no write of its known time names it, nor its cascade")
        findings.append(TransitionFinding(
            kind=FindingKind.UNEXPLAINED, at=change.at, fact_id=change.fact_id,
            version_id=next((v.version_id for v in (change.before, *change.after) if v is not None), None),
            why=f"{change.kind.value}: {why}"))
    return DimensionReport(ok=not findings, checked=len(changes), findings=findings), unjudged


def brought(changes: list[BeliefChange]) -> list[tuple[BeliefChange, BeliefVersion]]:
    """The versions that brought content in the window (each once): added, corrected, challengers, and the new
    fact of a merge or a succession."""
    out, seen = [], set()
    for change in changes:
        versions = (change.after if change.kind in BROUGHT_CONTENT
                    else [change.successor] if change.kind in TOOK_OVER and change.successor is not None else [])
        for v in versions:
            if v.version_id not in seen:
                seen.add(v.version_id)
                out.append((change, v))
    return out


def faithfulness(events: list[WindowEvent], changes: list[BeliefChange], grounding: dict[str, Grounding], *,
                 strict: bool) -> DimensionReport:
    """Each version that brought content is grounded; an ungrounded one fails only when `strict`."""
    findings = []
    checks = brought(changes)
    for change, version in checks:
        if version.statement is None and version.state is None:
            continue  # a forgotten fact's version: nothing of it remains to ground
        ground = grounding.get(version.version_id)
        if ground is not None and ground.grounded:
            continue
        event = next((e for e in events if e.at == change.at and ({version.version_id, version.fact_id}
                                                                  & {*e.ids, e.subject_id})), None)
        findings.append(TransitionFinding(
            kind=FindingKind.UNGROUNDED, at=change.at, event_id=event.event_id if event else None,
            operation=event.operation if event else None, fact_id=version.fact_id, version_id=version.version_id,
            why="no quote, source or acceptance stands behind it (a direct write)"))
    return DimensionReport(ok=not (strict and findings), checked=len(checks), findings=findings)


def judge(events: list[WindowEvent], changes: list[BeliefChange], *, grounding: dict[str, Grounding],
          known_from: dict[str, datetime], hidden_at: list[datetime], hidden_versions: int,
          known_before: datetime, known_after: datetime, strict: bool) -> TransitionReport:
    """The transition report of a window: the three dimensions, and what was withheld from the caller."""
    kept, unjudged = preservation(events, changes, hidden_at)
    withheld = len(hidden_at) + hidden_versions + unjudged
    parts = [f"{n} {what}" for n, what in ((len(hidden_at), "writes"), (hidden_versions, "changed versions"),
                                            (unjudged, "changes made beside them")) if n]
    note = (f"{', '.join(parts)} you are not cleared to see were left out of the check" if parts else None)
    return TransitionReport(
        known_before=known_before, known_after=known_after, events=len(events), changes=len(changes),
        coverage=coverage(events, changes, known_from), preservation=kept,
        faithfulness=faithfulness(events, changes, grounding, strict=strict),
        withheld=withheld, withheld_note=note, strict=strict)
