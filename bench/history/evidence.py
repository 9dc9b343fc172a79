"""What the final state says about each write: its ledger event(s), its versions, and so its known time.

A write is found by its tag (bench/history/records.py): the versions whose object is its op id (also seen in any
row of the history, which still names a fact's object after a forget scrubbed it), the ledger event whose reason is
its op id, or — for `end` — the `end_fact` event naming its fact inside its window. From these the checker decides,
once for the whole history, whether a write whose outcome is unknown happened, and checks that an acknowledged one
happened exactly once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from bench.history.model import instant
from bench.history.records import LEDGER_OPERATION, Final, LedgerEvent, Op, Version

TAGGED_OBJECT = ("add", "succeed", "correct")
TAGGED_REASON = ("retract", "resolve", "forget")


@dataclass
class Found:
    """The traces of one write in the final state."""

    events: list[LedgerEvent] = field(default_factory=list)  # its own events (operation LEDGER_OPERATION[kind])
    versions: list[Version] = field(default_factory=list)  # the versions that show it happened
    known: datetime | None = None  # its known time as the final state says

    @property
    def whole(self) -> bool:
        """Both halves present."""
        return bool(self.events) and bool(self.versions)

    @property
    def none(self) -> bool:
        """Neither half present."""
        return not self.events and not self.versions


class Evidence:
    """Indexes over one history's final state, per tenant."""

    def __init__(self, ops: list[Op], final: Final) -> None:
        self.final = final
        self.version = {t: {v.version_id: v for v in vs} for t, vs in final.versions.items()}
        self.by_fact: dict[tuple[str, str], list[Version]] = defaultdict(list)
        for t, vs in final.versions.items():
            for v in vs:
                self.by_fact[(t, v.fact_id)].append(v)
        self.events_at: dict[tuple[str, datetime], list[LedgerEvent]] = defaultdict(list)
        self.by_reason: dict[tuple[str, str], list[LedgerEvent]] = defaultdict(list)
        self.by_subject: dict[tuple[str, str, str], list[LedgerEvent]] = defaultdict(list)
        self.naming: dict[tuple[str, str, str], list[LedgerEvent]] = defaultdict(list)
        for t, events in final.ledger.items():
            for e in events:
                self.events_at[(t, e.at)].append(e)
                if e.reason:
                    self.by_reason[(t, e.reason)].append(e)
                if e.subject_id:
                    self.by_subject[(t, e.operation, e.subject_id)].append(e)
                for i in e.ids:
                    self.naming[(t, e.operation, i)].append(e)
        # tag -> version ids carrying it: the stored objects, and every row the history saw (a forget scrubs the
        # stored object but not what a read showed before it)
        self.tagged: dict[tuple[str, str], set[str]] = defaultdict(set)
        for t, vs in final.versions.items():
            for v in vs:
                if v.object is not None:
                    self.tagged[(t, v.object)].add(v.version_id)
        scrubbed = {(t, v.fact_id) for t, vs in final.versions.items() for v in vs if v.object is None}
        tenant_of = {o.id: o.tenant for o in ops}
        seen = [(o.tenant, r) for o in ops for r in o.rows]
        seen += [(tenant_of[rr.op_id], r) for rr in final.rereads if rr.op_id in tenant_of for r in rr.rows]
        for t, r in seen:
            if r.object is not None and (t, r.fact_id) in scrubbed:
                self.tagged[(t, r.object)].add(r.version_id)

    def find(self, op: Op, claimed: set[tuple[str, datetime]]) -> Found:
        """The traces of one write; `claimed` holds the known times acknowledged writes already account for."""
        t, operation = op.tenant, LEDGER_OPERATION[op.kind]
        if op.kind in TAGGED_OBJECT:
            versions = [self.version[t][v] for v in self.tagged.get((t, op.id), ()) if v in self.version.get(t, {})]
            if not versions:
                return Found()
            known = min(v.known_from for v in versions)
            facts = {v.fact_id for v in versions}
            if op.kind == "add":
                events = [e for f in facts for e in self.naming.get((t, operation, f), [])]
            elif op.kind == "succeed":  # the successor is named, not the subject (a later succession of it is)
                events = [e for f in facts for e in self.naming.get((t, operation, f), []) if e.subject_id != f]
            else:
                events = [e for f in facts for e in self.by_subject.get((t, operation, f), [])
                          if any(v.known_from == e.at for v in versions)]
            return Found(_unique(events), versions, known)
        if op.kind in TAGGED_REASON:
            events = [e for e in self.by_reason.get((t, op.id), []) if e.operation == operation]
            if not events:
                return Found()
            known = min(e.at for e in events)
            return Found(events, self._effect(op, known, events[0]), known)
        # end: the end_fact event naming its fact inside its window, not taken by an acknowledged write
        fact = op.args.get("fact_id")
        lo, hi = op.invoked, op.completed
        events = [e for e in self.by_subject.get((t, operation, fact), [])
                  if (op.known_at is not None and e.at == op.known_at)
                  or (op.known_at is None and (t, e.at) not in claimed and lo <= e.at and (hi is None or e.at <= hi))]
        if not events:
            return Found()
        known = min(e.at for e in events)
        return Found(events, self._effect(op, known, events[0]), known)

    def _effect(self, op: Op, known: datetime, event: LedgerEvent) -> list[Version]:
        """The versions that show an event-tagged write took effect at its known time."""
        t = op.tenant
        fact = op.args.get("fact_id") or op.args.get("target_id")
        if op.kind == "retract":
            return [v for v in self.by_fact.get((t, fact), []) if v.known_to == known]
        if op.kind == "forget":
            return [v for v in self.by_fact.get((t, fact), []) if v.forgotten]
        if op.kind == "end":
            at = instant(op.args.get("at"))
            return [v for v in self.by_fact.get((t, fact), []) if v.known_from == known and v.valid_to == at]
        challenger = event.subject_id  # resolve: the challenger's new version
        return [v for v in self.by_fact.get((t, challenger), []) if v.known_from == known]


def _unique(events: list[LedgerEvent]) -> list[LedgerEvent]:
    seen: dict[int, LedgerEvent] = {}
    for e in events:
        seen.setdefault(id(e), e)
    return list(seen.values())
