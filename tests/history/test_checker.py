"""The history checker can fail: hand-made histories, each with one broken promise, are each named by kind and ops."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.history.checker import check  # noqa: E402
from bench.history.records import LedgerEvent, Op, Reread, Row, Version, Final  # noqa: E402

T0 = datetime(2026, 12, 1, tzinfo=timezone.utc)
V0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
TENANT = "t1"


def sec(s: float) -> datetime:
    return T0 + timedelta(seconds=s)


def day(d: int) -> datetime:
    return V0 + timedelta(days=d)


class History:
    """Builds ops and the final state the store would hold after them, one write at a time."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self.versions: list[Version] = []
        self.ledger: list[LedgerEvent] = []
        self.n = 0

    # -- internals ---------------------------------------------------------------------------------------------
    def _op(self, op_id: str, kind: str, args: dict, t: float, outcome: str, k: datetime | None, rows: list[Row],
            code: str | None = None) -> Op:
        op = Op(op_id, int(op_id[1:].split(".")[0]), TENANT, kind, args, sec(t), sec(t + 1) if outcome != "lost" else
                None, "unknown" if outcome == "lost" else outcome, code, k if outcome == "ok" else None,
                rows if outcome == "ok" else [])
        self.ops.append(op)
        return op

    def _new(self, fact: str, obj: str | None, vf, vt, k: datetime, state: str = "active") -> Version:
        self.n += 1
        v = Version(fact, f"v{self.n}", obj, vf, vt, k, None, state, False)
        self.versions.append(v)
        return v

    def _current(self, fact: str) -> list[Version]:
        return [v for v in self.versions if v.fact_id == fact and v.known_to is None and not v.forgotten]

    def _event(self, k, operation, subject, ids, reason=None) -> None:
        self.ledger.append(LedgerEvent(len(self.ledger) + 1, k, operation, subject, ids, reason))

    @staticmethod
    def _row(v: Version) -> Row:
        return Row(v.fact_id, v.version_id, v.object, v.valid_from, v.valid_to, v.known_from, v.state)

    # -- writes: outcome "ok" | "lost" (unknown, no answer) | "refused"; stored / logged say what reached the store
    def add(self, op_id, subject, t, *, vf=V0, vt=None, outcome="ok", stored=True, logged=True, state="active"):
        k, fact = sec(t + 0.5), f"f_{op_id}"
        rows = []
        if stored:
            rows = [self._row(self._new(fact, op_id, vf, vt, k, state))]
        if logged:
            self._event(k, "add_facts", fact, [fact] + [r.version_id for r in rows])
        self._op(op_id, "add", {"subject": subject, "valid_from": vf}, t, outcome, k,
                 rows or [Row(fact, "v?", op_id, vf, vt, k, state)])
        return fact

    def succeed(self, op_id, fact, at, t, *, outcome="ok"):
        k, succ = sec(t + 0.5), f"f_{op_id}"
        for old in self._current(fact):
            old.known_to = k
            bounded = self._new(fact, old.object, old.valid_from, at, k)
        row = self._row(self._new(succ, op_id, at, None, k))
        self._event(k, "succeed_fact", fact, [fact, bounded.version_id, succ])
        self._op(op_id, "succeed", {"fact_id": fact, "at": at.isoformat()}, t, outcome, k, [row])
        return succ

    def _replace(self, op_id, kind, fact, t, outcome, obj=None, vt=None, args=None):
        k = sec(t + 0.5)
        rows = []
        for old in self._current(fact):
            old.known_to = k
            rows.append(self._row(self._new(fact, obj or old.object, old.valid_from, vt or old.valid_to, k)))
        self._event(k, f"{kind}_fact", fact, [fact] + [r.version_id for r in rows])
        self._op(op_id, kind, {"fact_id": fact, **(args or {})}, t, outcome, k, rows)

    def correct(self, op_id, fact, t, *, outcome="ok"):
        self._replace(op_id, "correct", fact, t, outcome, obj=op_id)

    def end(self, op_id, fact, at, t, *, outcome="ok"):
        self._replace(op_id, "end", fact, t, outcome, vt=at, args={"at": at.isoformat()})

    def retract(self, op_id, fact, t, *, outcome="ok"):
        k = sec(t + 0.5)
        closed = self._current(fact)
        for old in closed:
            old.known_to = k
        self._event(k, "retract_fact", fact, [fact] + [v.version_id for v in closed], reason=op_id)
        self._op(op_id, "retract", {"fact_id": fact, "reason": op_id}, t, outcome, k, [self._row(v) for v in closed])

    def reject(self, op_id, challenger, t, *, outcome="ok"):
        k = sec(t + 0.5)
        rows = []
        for old in self._current(challenger):
            old.known_to = k
            rows.append(self._row(self._new(challenger, old.object, old.valid_from, old.valid_to, k, "rejected")))
        self._event(k, "resolve_conflict", challenger, [challenger, f"c_{challenger}"], reason=op_id)
        self._op(op_id, "resolve", {"conflict_id": f"c_{challenger}", "decision": "reject", "reason": op_id}, t,
                 outcome, k, rows)

    def forget(self, op_id, fact, t, *, outcome="ok", logged=True):
        k = sec(t + 0.5)
        for v in self.versions:
            if v.fact_id == fact:
                v.object, v.state, v.forgotten = None, "forgotten", True
        if logged:
            self._event(k, "forget", fact, [fact], reason=op_id)
        # a forget answers no known time (its answer is the residue report): its ledger event has it, as recorded
        self._op(op_id, "forget", {"target_id": fact, "reason": op_id}, t, outcome, None, [])

    # -- reads ------------------------------------------------------------------------------------------------
    def read(self, op_id, subject, t, *, valid_at, known_at=None, rows=(), tombstones=()):
        made = [Row(f, "v", obj, vf, vt) for f, obj, vf, vt in rows]
        return self._op_read(op_id, subject, t, valid_at, known_at, made, list(tombstones))

    def _op_read(self, op_id, subject, t, valid_at, known_at, rows, tombstones):
        op = self._op(op_id, "read", {"subject": subject, "valid_at": valid_at.isoformat(),
                                      "known_at": known_at.isoformat() if known_at else None}, t, "ok", None, rows)
        op.tombstones = tombstones
        return op

    def final(self, rereads=(), ledger_ok=True) -> Final:
        return Final({TENANT: self.versions}, {TENANT: self.ledger}, {TENANT: ledger_ok}, list(rereads))


def kinds(violations) -> list[str]:
    return sorted(v.kind for v in violations)


def clean() -> History:
    """Every kind of write and read, as Credo would answer them."""
    h = History()
    a = h.add("c1.1", "s1", 0)                              # k 0.5: a from day 0
    b = h.succeed("c2.1", a, day(100), 2)                   # k 2.5: a bounded at day 100, b from day 100
    h.read("c3.1", "s1", 4, valid_at=day(50), known_at=sec(1),
           rows=[(a, "c1.1", V0, None)])                    # before the succession, a open-ended
    h.read("c3.2", "s1", 4, valid_at=day(50), rows=[(a, "c1.1", V0, day(100))])
    h.end("c1.2", b, day(200), 6)                           # k 6.5
    h.correct("c2.2", b, 8)                                 # k 8.5: b's object becomes c2.2
    c = h.add("c1.3", "s1", 10, vf=day(150), state="conflicted")  # k 10.5: kept, not served
    h.read("c3.3", "s1", 12, valid_at=day(160), rows=[(b, "c2.2", day(100), day(200))])
    h.reject("c2.3", c, 14)                                 # k 14.5
    d = h.add("c1.4", "s2", 16)                             # k 16.5
    h.read("c3.4", "s2", 18, valid_at=day(1), rows=[(d, "c1.4", V0, None)])
    h.retract("c2.4", d, 20)                                # k 20.5
    h.read("c3.5", "s2", 22, valid_at=day(1), rows=[])
    h.forget("c2.5", a, 24)                                 # k 24.5: a forgotten; earlier reads show a tombstone
    h.read("c3.6", "s1", 26, valid_at=day(50), known_at=sec(3), tombstones=[a])
    h.read("c3.7", "s1", 26, valid_at=day(50), rows=[])
    return h


def clean_rereads(h: History) -> list[Reread]:
    a = "f_c1.1"
    return [Reread("c3.1", [], [a]), Reread("c3.2", [], [a]),
            Reread("c3.3", [Row("f_c2.1", "v", "c2.2", day(100), day(200))]),
            Reread("c3.4", [Row("f_c1.4", "v", "c1.4", V0, None)]), Reread("c3.5", []), Reread("c3.6", [], [a])]


def test_a_clean_history_has_no_violations():
    h = clean()
    assert [str(v) for v in check(h.ops, h.final(clean_rereads(h)))] == []


def test_an_acknowledged_write_that_is_not_stored_is_lost():
    h = clean()
    h.add("c4.1", "s3", 30, stored=False, logged=False)
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["lost", "lost"] and all(v.ops == ["c4.1"] for v in found)


def test_an_acknowledged_write_stored_twice_is_a_duplicate():
    h = clean()
    h.add("c4.1", "s3", 30)
    h.versions.append(Version("f_again", "v_again", "c4.1", V0, None, sec(31.5), None, "active", False))
    h._event(sec(31.5), "add_facts", "f_again", ["f_again", "v_again"])
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["duplicate"] and found[0].ops == ["c4.1"]


def test_a_ledger_whose_order_contradicts_its_known_times_is_an_inversion():
    h = clean()
    h.add("c4.1", "s3", 30)
    h.add("c4.2", "s3", 32)
    h.ledger[-1].seq, h.ledger[-2].seq = h.ledger[-2].seq, h.ledger[-1].seq
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["known_time"] and set(found[0].ops) == {"c4.1", "c4.2"}


def test_two_writes_with_one_known_time_are_named():
    h = clean()
    h.add("c4.1", "s3", 30)
    h.add("c5.1", "s4", 30)
    found = check(h.ops, h.final(clean_rereads(h)))
    assert "known_time" in kinds(found)
    assert next(v for v in found if v.kind == "known_time").ops == ["c4.1", "c5.1"]


def test_a_write_acknowledged_before_another_began_must_have_the_smaller_known_time():
    h = clean()
    h.add("c4.1", "s3", 30)
    h.add("c5.1", "s4", 40)
    first, second = h.ops[-2], h.ops[-1]
    first.known_at = h.versions[-2].known_from = h.ledger[-2].at = sec(60)  # stored after c5.1's known time
    h.ledger[-2].seq, h.ledger[-1].seq = h.ledger[-1].seq, h.ledger[-2].seq
    first.rows[0].known_from = sec(60)
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["real_time"] and found[0].ops == ["c4.1", "c5.1"]
    assert second.invoked > first.completed


def test_a_read_that_misses_an_acknowledged_write_is_stale():
    h = clean()
    e = h.add("c4.1", "s3", 30)
    h.read("c4.2", "s3", 32, valid_at=day(1), known_at=sec(31), rows=[])
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["stale_read"] and found[0].ops == ["c4.2", "c4.1"] and e in found[0].message


def test_a_read_that_sees_a_write_from_its_future_is_stale():
    h = clean()
    h.read("c4.2", "s3", 30, valid_at=day(1), rows=[("f_c5.1", "c5.1", V0, None)])  # completes at 31
    h.add("c5.1", "s3", 33)
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["stale_read"] and found[0].ops == ["c4.2", "c5.1"]


def test_a_read_now_may_see_a_concurrent_write_or_not():
    h = clean()
    h.add("c4.1", "s3", 30)                                          # invoked 30, k 30.5, completed 31
    h.read("c4.2", "s3", 30.2, valid_at=day(1), rows=[])
    h.read("c4.3", "s3", 30.2, valid_at=day(1), rows=[("f_c4.1", "c4.1", V0, None)])
    assert check(h.ops, h.final(clean_rereads(h))) == []


def test_a_read_now_may_miss_a_write_that_took_an_earlier_known_time_and_was_still_committing():
    h = clean()
    h.add("c4.1", "s3", 30)                                          # k 30.5, acknowledged at 31
    h.read("c4.2", "s3", 30.6, valid_at=day(1), rows=[])             # invoked after k, before the acknowledgement
    assert check(h.ops, h.final(clean_rereads(h))) == []


def test_a_read_at_a_past_known_time_reads_exactly_there_even_while_a_write_there_is_committing():
    h = clean()
    e = h.add("c4.1", "s3", 30)                                      # k 30.5, acknowledged at 31
    h.read("c4.2", "s3", 30.8, valid_at=day(1), known_at=sec(30.7), rows=[])
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["stale_read"] and found[0].ops == ["c4.2", "c4.1"] and e in found[0].message


def test_an_acknowledged_forget_with_no_ledger_event_is_lost():
    h = clean()
    e = h.add("c4.1", "s3", 30)
    h.forget("c4.2", e, 40, logged=False)
    found = check(h.ops, h.final(clean_rereads(h)))
    assert "lost" in kinds(found) and any(v.ops == ["c4.2"] for v in found if v.kind == "lost")


def test_a_reread_that_differs_without_a_forget_is_named():
    h = clean()
    rereads = clean_rereads(h)
    rereads[3] = Reread("c3.4", [])
    found = check(h.ops, h.final(rereads))
    assert kinds(found) == ["reread"] and found[0].ops == ["c3.4"]


def test_a_forgotten_fact_must_show_its_tombstone_when_reread():
    h = clean()
    rereads = clean_rereads(h)
    rereads[1] = Reread("c3.2", [])                                  # the forgotten fact simply vanished
    found = check(h.ops, h.final(rereads))
    assert kinds(found) == ["reread"] and found[0].ops == ["c3.2", "c2.5"]


def test_an_unknown_write_with_its_version_but_no_ledger_event_is_half_applied():
    h = clean()
    h.add("c4.1", "s3", 30, outcome="lost", logged=False)
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["half_applied"] and found[0].ops == ["c4.1"]


def test_a_refused_write_whose_tag_is_stored_is_half_applied():
    h = clean()
    h.retract("c4.1", "f_c1.3", 30, outcome="refused")
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["half_applied"] and found[0].ops == ["c4.1"]


def test_a_write_no_operation_made_is_a_phantom():
    h = clean()
    h.versions.append(Version("f_x", "v_x", "nobody", V0, None, sec(40), None, "active", False))
    h._event(sec(40), "add_facts", "f_x", ["f_x", "v_x"])
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["phantom", "phantom"] and all("f_x" in v.message for v in found)


def test_a_ledger_that_does_not_verify_is_named():
    h = clean()
    assert kinds(check(h.ops, h.final(clean_rereads(h), ledger_ok=False))) == ["ledger"]


def test_an_unknown_write_absent_everywhere_is_clean():
    h = clean()
    h.add("c4.1", "s3", 30, outcome="lost", stored=False, logged=False)
    h.read("c4.2", "s3", 40, valid_at=day(1), rows=[])
    assert check(h.ops, h.final(clean_rereads(h))) == []


def test_an_unknown_write_present_everywhere_is_clean_and_reads_see_it():
    h = clean()
    h.add("c4.1", "s3", 30, outcome="lost")
    h.end("c4.2", "f_c4.1", day(10), 40, outcome="lost")            # unknown end: decided by its end_fact event
    h.read("c4.3", "s3", 50, valid_at=day(1), rows=[("f_c4.1", "c4.1", V0, day(10))])
    assert check(h.ops, h.final(clean_rereads(h))) == []
    h.add("c4.5", "s4", 45)                                          # acknowledged at 46, known time 45.5: the
    h.read("c4.4", "s3", 52, valid_at=day(1), rows=[])              # unknown writes committed before it, so a read
    #                                                                 "now" after it must see them
    found = check(h.ops, h.final(clean_rereads(h)))
    assert kinds(found) == ["stale_read"] and found[0].ops[:2] == ["c4.4", "c4.1"]


def test_str_of_a_violation_is_one_line_naming_the_ops():
    h = clean()
    h.add("c4.1", "s3", 30, outcome="lost", logged=False)
    line = str(check(h.ops, h.final(clean_rereads(h)))[0])
    assert "\n" not in line and line.startswith("half_applied:") and "c4.1" in line
