"""The transition check's pure rule (services/truth/transition_rules.py), table-driven: what each write asks,
when a change counts as explained, what counts as grounded, and what the caller's clearance leaves out."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.diff import BeliefChange, BeliefVersion, ChangeKind
from credo.schema.transition import Grounding, WindowEvent
from credo.services.truth.transition_rules import asked, change_ids, coverage, faithfulness, judge, preservation

T = datetime(2025, 1, 3, tzinfo=timezone.utc)
EARLIER = T - timedelta(days=1)


def ev(operation: str, detail: dict, *, subject: str | None = "f_1", ids: list[str] | None = None,
       at: datetime = T) -> WindowEvent:
    return WindowEvent(event_id="a_1", at=at, operation=operation, subject_id=subject, detail=detail,
                       ids=ids if ids is not None else [subject] if subject else [])


def v(version: str, fact: str = "f_1", statement: str | None = "s") -> BeliefVersion:
    return BeliefVersion(fact_id=fact, version_id=version, statement=statement, state="active")


def ch(kind: ChangeKind, *, fact: str = "f_1", before: str | None = None, after: list[str] = (),
       successor: BeliefVersion | None = None, conflict: str | None = None, at: datetime = T) -> BeliefChange:
    return BeliefChange(kind=kind, at=at, fact_id=fact, before=v(before, fact) if before else None,
                        after=[v(a, fact) for a in after], successor=successor, conflict_id=conflict)


@pytest.mark.parametrize("event, wanted", [
    (ev("add_facts", {"facts": [{"fact_id": "f_1", "version_id": "v_1", "outcome": "admit"},
                                {"fact_id": "f_2", "version_id": "v_2", "outcome": "reinforced"}]}),
     [("shown", "v_1")]),
    (ev("correct_fact", {"old": "v_1", "new": "v_2"}), [("ended", "v_1"), ("shown", "v_2")]),
    (ev("merge_facts", {"version_id": "v_9", "inputs": ["v_1", "v_2"]}),
     [("shown", "v_9"), ("ended", "v_1"), ("ended", "v_2")]),
    (ev("resolve_conflict", {"conflict_id": "c_1", "decision": "succession"}), [("conflict", "c_1")]),
    (ev("extract", {"facts": ["f_1", "f_2"]}, subject="session"), [("fact", "f_1"), ("fact", "f_2")]),
    (ev("retract_fact", {"version_id": "v_1"}), [("ended", "v_1")]),
    (ev("reverify", {"outcome": "retracted"}), [("fact", "f_1")]),
    (ev("admit", {"version_id": "v_2", "state": "active"}), [("shown", "v_2")]),
    (ev("cascade", {"facts": [{"fact_id": "f_3", "version_id": "v_3"}]}), [("fact", "f_3")]),
    (ev("cite", {"version_id": "v_1", "source_id": "s_1"}), []),  # a citation changes no belief
    (ev("add_facts", {"facts": "not a list"}), []),  # a malformed detail asks nothing (and breaks nothing)
])
def test_what_each_write_asks(event, wanted):
    assert [(a.what, a.id) for a in asked(event)] == wanted


@pytest.mark.parametrize("event, changes, known_from, ok", [
    # a version shown at the write's own known time
    (ev("correct_fact", {"old": "v_1", "new": "v_2"}), [ch(ChangeKind.CORRECTED, before="v_1", after=["v_2"])], {},
     True),
    # the correction's old version ended, but the diff shows it ended as a retraction: not what was asked
    (ev("correct_fact", {"old": "v_1", "new": "v_2"}), [ch(ChangeKind.RETRACTED, before="v_1", after=["v_2"])], {},
     False),
    # the right change at another known time (another write) does not cover this one
    (ev("correct_fact", {"old": "v_1", "new": "v_2"}),
     [ch(ChangeKind.CORRECTED, before="v_1", after=["v_2"], at=T + timedelta(seconds=1))], {}, False),
    # a restatement returns a version believed before: it asked no change
    (ev("remember", {"version_id": "v_1"}), [], {"v_1": EARLIER}, True),
    # ... but an end_fact naming a version believed before asked one: it must show
    (ev("end_fact", {"version_id": "v_1"}), [], {"v_1": EARLIER}, False),
    # a resolution is found by its conflict id, or by its challenger's fact
    (ev("resolve_conflict", {"conflict_id": "c_1"}), [ch(ChangeKind.CONFLICT_RESOLVED, conflict="c_1")], {}, True),
    (ev("resolve_conflict", {"conflict_id": "c_1"}), [ch(ChangeKind.CONFLICT_RESOLVED, fact="f_1")], {}, True),
    (ev("resolve_conflict", {"conflict_id": "c_1"}), [ch(ChangeKind.CORRECTED, before="v_1")], {}, False),
    # a succession's successor fact is named by the change of the fact it took over
    (ev("succeed_fact", {"ended": "v_2", "successor": "f_9"}),
     [ch(ChangeKind.SUPERSEDED, before="v_1", after=["v_2"], successor=v("v_9", "f_9"))], {}, True),
    (ev("succeed_fact", {"ended": "v_2", "successor": "f_9"}),
     [ch(ChangeKind.SUPERSEDED, before="v_1", after=["v_2"])], {}, False),
    # an empty window of writes asks nothing
    (ev("cite", {}), [], {}, True),
])
def test_coverage(event, changes, known_from, ok):
    report = coverage([event], changes, known_from)
    assert report.ok is ok
    assert all(f.event_id == "a_1" and f.kind == "missing" for f in report.findings)


@pytest.mark.parametrize("events, change, hidden, explained", [
    # named by a write of its known time (the fact, a version, its successor)
    ([ev("end_fact", {}, ids=["f_1", "v_2"])], ch(ChangeKind.ENDED, before="v_1", after=["v_2"]), [], True),
    ([ev("merge_facts", {}, subject="f_9", ids=["f_9", "v_9", "v_1"])],
     ch(ChangeKind.MERGED, before="v_1", successor=v("v_9", "f_9")), [], True),
    # a cascade's event lists what it flagged
    ([ev("cascade", {}, subject="f_2", ids=["f_2", "f_3", "v_3"])], ch(ChangeKind.STALE, fact="f_3", after=["v_3"]),
     [], True),
    # a write of the same known time about something else does not explain it
    ([ev("end_fact", {}, subject="f_2", ids=["f_2", "v_5"])], ch(ChangeKind.ENDED, before="v_1"), [], False),
    # no write at all at its known time
    ([], ch(ChangeKind.RETRACTED, before="v_1"), [], False),
    # a write the caller may not see was made then: left unjudged, never a finding
    ([], ch(ChangeKind.RETRACTED, before="v_1"), [T], None),
])
def test_preservation(events, change, hidden, explained):
    report, unjudged = preservation(events, [change], hidden)
    if explained is None:
        assert report.ok and unjudged == 1
        return
    assert report.ok is explained and unjudged == 0
    if not explained:
        [finding] = report.findings
        assert (finding.fact_id, finding.version_id, finding.event_id) == ("f_1", "v_1", None)
        assert ("no ledger event" in finding.why) is (not events)


def test_change_ids_names_every_side():
    change = BeliefChange(kind=ChangeKind.CONFLICT_OPENED, at=T, fact_id="f_1", after=[v("v_1")],
                          against=[v("v_7", "f_7")], conflict_id="c_1")
    assert change_ids(change) == {"f_1", "v_1", "f_7", "v_7", "c_1"}


@pytest.mark.parametrize("kind, grounding, strict, findings, ok", [
    (ChangeKind.ADDED, Grounding(version_id="v_1", quotes=1, sources=1), False, 0, True),
    (ChangeKind.ADDED, Grounding(version_id="v_1", accepted=1), True, 0, True),
    (ChangeKind.ADDED, Grounding(version_id="v_1", sources=1), True, 0, True),  # a source without a quote
    (ChangeKind.ADDED, Grounding(version_id="v_1"), False, 1, True),  # ungrounded: reported, not failed
    (ChangeKind.ADDED, Grounding(version_id="v_1"), True, 1, False),  # ... unless strict
    (ChangeKind.ADDED, None, True, 1, False),  # nothing known of it: ungrounded
    (ChangeKind.STATE_CHANGED, Grounding(version_id="v_1"), True, 0, True),  # brought no content
    (ChangeKind.STALE, None, True, 0, True),
])
def test_faithfulness(kind, grounding, strict, findings, ok):
    change = ch(kind, after=["v_1"])
    event = ev("add_facts", {}, ids=["f_1", "v_1"])
    report = faithfulness([event], [change], {"v_1": grounding} if grounding else {}, strict=strict)
    assert (len(report.findings), report.ok) == (findings, ok)
    assert all(f.operation == "add_facts" and f.kind == "ungrounded" for f in report.findings)


def test_a_forgotten_versions_lack_of_ground_is_not_reported():
    change = BeliefChange(kind=ChangeKind.ADDED, at=T, fact_id="f_1",
                          after=[BeliefVersion(fact_id="f_1", version_id="v_1")])
    assert faithfulness([], [change], {}, strict=True).findings == []


def test_judge_counts_what_it_withholds_and_says_so_without_naming_it():
    report = judge([], [ch(ChangeKind.RETRACTED, before="v_1")], grounding={}, known_from={}, hidden_at=[T],
                   hidden_versions=2, known_before=EARLIER, known_after=T, strict=False)
    assert report.ok and not report.complete and report.withheld == 4  # 1 write, 2 versions, 1 change beside them
    assert "not cleared to see" in report.withheld_note and "v_" not in report.withheld_note
    empty = judge([], [], grounding={}, known_from={}, hidden_at=[], hidden_versions=0, known_before=EARLIER,
                  known_after=T, strict=True)
    assert empty.ok and empty.complete and empty.withheld_note is None
    dumped = empty.model_dump(mode="json")
    assert dumped["ok"] is True and dumped["complete"] is True  # the verdicts travel in the JSON of every surface
