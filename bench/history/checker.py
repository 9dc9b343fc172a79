"""Check a recorded history against the model: `check(ops, final)` lists every violation (docs/history.md).

Kinds: `lost` (an acknowledged write not stored, or stored without its ledger event), `duplicate` (a write stored
twice), `known_time` (two writes with one known time, a ledger whose order contradicts its times, a write stored at
another known time than it returned), `real_time` (a write acknowledged before another was invoked has the larger
known time), `stale_read` (a read that matches no model state it could have seen), `reread` (a re-read that differs
from its read other than by a forget's tombstone), `half_applied` (an unknown write partly stored, a refused write
whose tag is stored), `phantom` (a ledger event or a version no write accounts for), `ledger` (the ledger does not
verify). Each names the op ids involved. Cost: O(n log n) in the history, plus the reads' model look-ups.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone

from bench.history.evidence import TAGGED_OBJECT, Evidence, Found
from bench.history.model import Applied, Model, Served, instant
from bench.history.records import LEDGER_OPERATION, WRITES, Final, Op, Row

EARLIEST = datetime(1, 1, 1, tzinfo=timezone.utc)


@dataclass
class Violation:
    """One broken promise, with the operations involved."""

    kind: str
    message: str
    ops: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.kind}: {self.message} [ops: {', '.join(self.ops) or '-'}]"


def check(ops: list[Op], final: Final) -> list[Violation]:
    """Every violation of the history's promises (acknowledged writes, known times, reads, re-reads, ledger)."""
    out: list[Violation] = []
    ev = Evidence(ops, final)
    applied, explained = _writes(ops, ev, out)
    _known_times(ops, applied, final, out)
    models = _models(applied)
    forgets = _forgets(ops, applied)
    _reads(ops, applied, models, forgets, out)
    _rereads(ops, final, forgets, out)
    _ledger(ops, final, applied, explained, out)
    return out


# -- 1 and 5: each write present exactly once, or wholly absent ------------------------------------------------
def _writes(ops: list[Op], ev: Evidence, out: list[Violation]) -> tuple[list[Applied], set[tuple[str, datetime]]]:
    claimed = {(o.tenant, o.known_at) for o in ops if o.kind in WRITES and o.outcome == "ok" and o.known_at}
    applied: list[Applied] = []
    explained: set[tuple[str, datetime]] = set()
    for op in ops:
        if op.kind not in WRITES:
            continue
        found = ev.find(op, claimed)
        if op.outcome == "ok":
            known = op.known_at
            if known is None and op.kind == "forget" and len(found.events) == 1:
                known = found.known  # a forget answers no known time: its one ledger event (reason: its id) has it
            _acknowledged(op, known, ev, found, out)
            explained.update((op.tenant, e.at) for e in found.events)  # a duplicate is named once, not as phantom
            explained.update((op.tenant, v.known_from) for v in found.versions)
            if known is not None:
                applied.append(Applied(op.id, op.tenant, op.kind, known, op.args, list(op.rows)))
        elif op.outcome == "refused":
            if not found.none:
                out.append(Violation("half_applied", f"refused {op.kind} ({op.code}) left {_traces(found)}", [op.id]))
                explained.update((op.tenant, e.at) for e in found.events)
                explained.update((op.tenant, v.known_from) for v in found.versions)
        elif found.whole:
            if len({e.at for e in found.events}) > 1 or (op.kind in TAGGED_OBJECT and _facts(found) > 1):
                out.append(Violation("duplicate", f"unknown {op.kind} stored more than once: {_traces(found)}",
                                     [op.id]))
            applied.append(Applied(op.id, op.tenant, op.kind, found.known, op.args, _rows(op, ev, found),
                                   found.events[0].subject_id))
            claimed.add((op.tenant, found.known))
        elif not found.none:
            out.append(Violation("half_applied", f"unknown {op.kind} partly stored: {_traces(found)}", [op.id]))
            explained.update((op.tenant, e.at) for e in found.events)
            explained.update((op.tenant, v.known_from) for v in found.versions)
    return applied, explained


def _acknowledged(op: Op, k: datetime | None, ev: Evidence, found: Found, out: list[Violation]) -> None:
    t, operation = op.tenant, LEDGER_OPERATION[op.kind]
    if k is None:
        said = "has no forget ledger event naming it" if op.kind == "forget" else "returned no known time"
        out.append(Violation("lost", f"acknowledged {op.kind} {said}", [op.id]))
        return
    own = [e for e in ev.events_at.get((t, k), []) if e.operation == operation]
    if not own:
        out.append(Violation("lost", f"acknowledged {op.kind} at {k.isoformat()} has no {operation} ledger event",
                             [op.id]))
    elif len(own) > 1:
        out.append(Violation("duplicate", f"{len(own)} {operation} events at {k.isoformat()}", [op.id]))
    stored = ev.version.get(t, {})
    fact = op.args.get("fact_id") or op.args.get("target_id")
    if op.kind == "forget":
        missing = [] if any(v.forgotten for v in ev.by_fact.get((t, fact), [])) else [fact]
    elif op.kind == "retract":
        missing = [r.version_id for r in op.rows if stored.get(r.version_id) is None
                   or stored[r.version_id].known_to != k]
    else:
        missing = [r.version_id for r in op.rows if stored.get(r.version_id) is None
                   or stored[r.version_id].known_from != k or stored[r.version_id].fact_id != r.fact_id]
    if missing:
        out.append(Violation("lost", f"acknowledged {op.kind} at {k.isoformat()}: {', '.join(map(str, missing))} "
                             "not stored as returned", [op.id]))
    if len({e.at for e in found.events}) > 1 or (op.kind in TAGGED_OBJECT and _facts(found) > 1):
        out.append(Violation("duplicate", f"acknowledged {op.kind} stored more than once: {_traces(found)}",
                             [op.id]))
    elif found.known is not None and found.known != k:
        out.append(Violation("known_time", f"acknowledged {op.kind} returned {k.isoformat()} but is stored at "
                             f"{found.known.isoformat()}", [op.id]))


def _facts(found: Found) -> int:
    return len({v.fact_id for v in found.versions} | {e.subject_id for e in found.events if e.operation == "add_facts"})


def _traces(found: Found) -> str:
    events = ", ".join(f"{e.operation}@{e.at.isoformat()}" for e in found.events) or "no ledger event"
    versions = ", ".join(v.version_id for v in found.versions) or "no version"
    return f"{events}; {versions}"


def _rows(op: Op, ev: Evidence, found: Found) -> list[Row]:
    """An unknown write decided present: its versions read back at its known time."""
    t, k = op.tenant, found.known
    if op.kind in ("retract", "forget"):
        return []
    if op.kind in ("add", "succeed"):
        facts = {v.fact_id for v in found.versions}
    elif op.kind == "resolve":
        facts = {found.events[0].subject_id}
    else:
        facts = {op.args.get("fact_id")}
    versions = [v for f in facts for v in ev.by_fact.get((t, f), []) if v.known_from == k]
    own_object = op.id if op.kind in TAGGED_OBJECT else None
    return [Row(v.fact_id, v.version_id, v.object if v.object is not None else own_object, v.valid_from, v.valid_to,
                v.known_from, "active" if v.forgotten else v.state) for v in versions]


# -- 2: known times unique, increasing, in real-time order -----------------------------------------------------
def _known_times(ops: list[Op], applied: list[Applied], final: Final, out: list[Violation]) -> None:
    at: dict[tuple[str, datetime], list[str]] = defaultdict(list)
    for w in applied:
        at[(w.tenant, w.known)].append(w.op_id)
    for (t, k), ids in at.items():
        if len(ids) > 1:
            out.append(Violation("known_time", f"{len(ids)} writes share known time {k.isoformat()} in {t}", ids))
    for t, events in final.ledger.items():
        ordered = sorted((e for e in events if e.seq is not None), key=lambda e: e.seq)
        for before, after in zip(ordered, ordered[1:]):
            if after.at < before.at:
                ids = at.get((t, before.at), []) + at.get((t, after.at), [])
                out.append(Violation("known_time", f"ledger #{after.seq} at {after.at.isoformat()} is earlier than "
                                     f"#{before.seq} at {before.at.isoformat()}", ids))
    by_id = {o.id: o for o in ops}
    for t in {w.tenant for w in applied}:
        done = sorted((by_id[w.op_id].completed, w.known, w.op_id) for w in applied
                      if w.tenant == t and by_id[w.op_id].outcome == "ok" and by_id[w.op_id].completed)
        best: list[tuple[datetime, str]] = []
        for _, k, i in done:
            best.append(max(best[-1], (k, i)) if best else (k, i))
        ends = [d[0] for d in done]
        for w in applied:
            if w.tenant != t:
                continue
            n = bisect_left(ends, by_id[w.op_id].invoked)
            if n and best[n - 1][0] >= w.known:
                k, i = best[n - 1]
                out.append(Violation("real_time", f"{i} completed before {w.op_id} was invoked but its known time "
                                     f"{k.isoformat()} is not before {w.known.isoformat()}", [i, w.op_id]))


# -- 3: reads equal the model --------------------------------------------------------------------------------
def _models(applied: list[Applied]) -> dict[str, Model]:
    models: dict[str, Model] = defaultdict(Model)
    for w in sorted(applied, key=lambda w: (w.tenant, w.known)):
        models[w.tenant].apply(w)
    return models


def _forgets(ops: list[Op], applied: list[Applied]) -> dict[tuple[str, str], list[Op]]:
    """Each fact's forgets that happened (acknowledged, or unknown and decided present)."""
    by_id = {o.id: o for o in ops}
    found: dict[tuple[str, str], list[Op]] = defaultdict(list)
    for w in applied:
        if w.kind == "forget":
            found[(w.tenant, w.args.get("fact_id") or w.args.get("target_id"))].append(by_id[w.op_id])
    return found


def _reads(ops: list[Op], applied: list[Applied], models: dict[str, Model],
           forgets: dict[tuple[str, str], list[Op]], out: list[Violation]) -> None:
    by_id = {o.id: o for o in ops}
    for t in {o.tenant for o in ops if o.kind == "read"}:
        mine = [w for w in applied if w.tenant == t]
        times = sorted(w.known for w in mine)
        done = sorted((by_id[w.op_id].completed, w.known) for w in mine
                      if by_id[w.op_id].outcome == "ok" and by_id[w.op_id].completed)
        ends, latest = [d[0] for d in done], []
        for _, k in done:
            latest.append(max(latest[-1], k) if latest else k)
        started = sorted((by_id[w.op_id].invoked, w.known) for w in mine)
        starts, earliest = [s[0] for s in started], [EARLIEST] * len(started)
        low = None
        for i in range(len(started) - 1, -1, -1):
            low = started[i][1] if low is None else min(low, started[i][1])
            earliest[i] = low
        for op in ops:
            if op.tenant != t or op.kind != "read" or op.outcome != "ok" or op.completed is None:
                continue
            n = bisect_left(ends, op.invoked)
            lo = latest[n - 1] if n else EARLIEST
            m = bisect_right(starts, op.completed)
            hi = earliest[m] if m < len(starts) else None
            _read(op, models[t], times, lo, hi, forgets, out)


def _read(op: Op, model: Model, times: list[datetime], lo: datetime, hi: datetime | None,
          forgets: dict[tuple[str, str], list[Op]], out: list[Violation]) -> None:
    point = instant(op.args.get("known_at"))
    valid_at = instant(op.args.get("valid_at")) or op.invoked
    tombs = set(op.tombstones) | {r.fact_id for r in op.rows if r.object is None}
    content = {_served(r) for r in op.rows if r.object is not None and r.fact_id not in tombs}
    # A read at an explicit (past) known time reads exactly there: a write at or before it still committing is
    # waited for (services/core/settle.py). A read "now" reads what has committed: writes commit in known-time
    # order, so it may read at any instant from the latest known time acknowledged before it was invoked (not
    # from its invocation: a write may have taken an earlier known time and still be committing) to its
    # completion, short of any write invoked after it completed.
    if point is not None:
        candidates = [point]
    else:
        end = bisect_right(times, op.completed)
        if hi is not None:
            end = min(end, bisect_left(times, hi))
        candidates = [lo] + times[bisect_right(times, lo):end]
    best: tuple[int, set, set, set] | None = None
    for s in candidates:
        expected = model.expected(op.tenant, op.args.get("subject"), valid_at, s)
        missing, extra, bad = _differ(op, expected, content, tombs, s, forgets)
        if not (missing or extra or bad):
            return
        size = len(missing) + len(extra) + len(bad)
        if best is None or size < best[0]:
            best = (size, missing, extra, bad)
    _, missing, extra, bad = best
    facts = sorted({m[0] for m in missing} | {x[0] for x in extra} | bad)
    involved = [op.id] + [w for f in facts for w in model.writers(op.tenant, f)[-3:]]
    at = point.isoformat() if point is not None else "now"
    parts = [f"missing {sorted(missing, key=str)}" if missing else "", f"unexpected {sorted(extra, key=str)}"
             if extra else "", f"tombstones not due {sorted(bad)}" if bad else ""]
    out.append(Violation("stale_read", f"read of {op.args.get('subject')} at known {at}, valid "
                         f"{valid_at.isoformat()}: " + "; ".join(p for p in parts if p), list(dict.fromkeys(involved))))


def _differ(op: Op, expected: set[Served], content: set[Served], tombs: set[str], s: datetime,
            forgets: dict[tuple[str, str], list[Op]]) -> tuple[set, set, set]:
    missing = {e for e in expected if e not in content and not (e[0] in tombs and _may_tomb(op, e[0], forgets))}
    extra = content - expected
    extra |= {c for c in content if (op.tenant, c[0]) in forgets and _must_tomb(op, c[0], forgets)}
    bad = {f for f in tombs if f not in {e[0] for e in expected} or not _may_tomb(op, f, forgets)}
    return missing, extra, bad


def _may_tomb(op: Op, fact: str, forgets: dict[tuple[str, str], list[Op]]) -> bool:
    return any(f.invoked <= op.completed for f in forgets.get((op.tenant, fact), []))


def _must_tomb(op: Op, fact: str, forgets: dict[tuple[str, str], list[Op]]) -> bool:
    return any(f.completed is not None and f.completed < op.invoked for f in forgets.get((op.tenant, fact), []))


def _served(r: Row) -> Served:
    return (r.fact_id, r.object, instant(r.valid_from), instant(r.valid_to))


# -- 4: re-reads give the same answer --------------------------------------------------------------------------
def _rereads(ops: list[Op], final: Final, forgets: dict[tuple[str, str], list[Op]], out: list[Violation]) -> None:
    by_id = {o.id: o for o in ops}
    for rr in final.rereads:
        op = by_id.get(rr.op_id)
        if op is None or op.outcome != "ok":
            continue
        was_t = set(op.tombstones) | {r.fact_id for r in op.rows if r.object is None}
        now_t = set(rr.tombstones) | {r.fact_id for r in rr.rows if r.object is None}
        was = {_served(r) for r in op.rows if r.object is not None and r.fact_id not in was_t}
        now = {_served(r) for r in rr.rows if r.object is not None and r.fact_id not in now_t}
        gone = {w for w in was - now if not (w[0] in now_t and forgets.get((op.tenant, w[0])))}
        problems = [f"gone {sorted(gone, key=str)}" if gone else "",
                    f"new {sorted(now - was, key=str)}" if now - was else "",
                    f"tombstones lost {sorted(was_t - now_t)}" if was_t - now_t else "",
                    f"tombstones without a forget {sorted(f for f in now_t - was_t if not forgets.get((op.tenant, f)))}"
                    if any(not forgets.get((op.tenant, f)) for f in now_t - was_t) else ""]
        if any(problems):
            facts = sorted({g[0] for g in gone} | {n[0] for n in now - was} | (was_t ^ now_t))
            involved = [op.id] + [f.id for fact in facts for f in forgets.get((op.tenant, fact), [])]
            out.append(Violation("reread", f"re-read of {op.id} differs: " + "; ".join(p for p in problems if p),
                                 involved))


# -- 5: the ledger verifies, and nothing is stored that no write accounts for ----------------------------------
def _ledger(ops: list[Op], final: Final, applied: list[Applied], explained: set[tuple[str, datetime]],
            out: list[Violation]) -> None:
    for t, ok in final.ledger_ok.items():
        if not ok:
            out.append(Violation("ledger", f"the ledger of {t} does not verify"))
    known = {(w.tenant, w.known) for w in applied} | explained
    start = {t: min(o.invoked for o in ops if o.tenant == t) for t in {o.tenant for o in ops}}
    for t, events in final.ledger.items():
        _phantoms(t, [(e.at, f"{e.operation}({e.subject_id})") for e in events], "ledger events at", known, start, out)
    for t, versions in final.versions.items():
        _phantoms(t, [(v.known_from, f"{v.version_id} of {v.fact_id} ({v.object})") for v in versions],
                  "versions known from", known, start, out)


def _phantoms(t: str, stamped: list[tuple[datetime, str]], what: str, known: set[tuple[str, datetime]],
              start: dict[str, datetime], out: list[Violation]) -> None:
    """What the store holds at a known time no write of the history accounts for (set-up before the run aside)."""
    stray: dict[datetime, list[str]] = defaultdict(list)
    for at, name in stamped:
        if (t, at) not in known and t in start and at >= start[t]:
            stray[at].append(name)
    for at, names in sorted(stray.items()):
        out.append(Violation("phantom", f"{what} {at.isoformat()} no write accounts for: {', '.join(names)}"))
