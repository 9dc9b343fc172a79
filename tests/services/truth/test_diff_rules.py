"""The belief diff's pure rule (services/truth/diff_rules.py): what each version, flag and dispute read in a known
window is, table-driven over the ways a belief ends, the edges of the window and what must stay out."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.diff import Dispute, FlagRaised, Link, TouchedVersion
from credo.schema.facts import Fact, ObjectValue
from credo.schema.forget import Tombstone
from credo.services.truth.diff_rules import belief_changes

T0 = datetime(2025, 2, 1, tzinfo=timezone.utc)
A, B = T0, T0 + timedelta(days=10)  # the window (A, B]
W = T0 + timedelta(days=1)  # a write inside it


def fact(fact_id: str, version_id: str, *, known_from: datetime = T0 - timedelta(days=30), known_to=None,
         ended_by=None, end_reason=None, statement="s", state="active", tombstone=None, valid_to=None) -> Fact:
    return Fact(tenant="t", fact_id=fact_id, version_id=version_id, subject="S", subject_id="e_s", predicate="p",
                object=ObjectValue(type="string", value=statement), object_name=statement, statement=statement,
                known_from=known_from, known_to=known_to, ended_by=ended_by, end_reason=end_reason, state=state,
                tombstone=tombstone, valid_to=valid_to)


def touched(f: Fact, *links: tuple[str, str, str], earlier: bool = False) -> TouchedVersion:
    return TouchedVersion(fact=f, supersedes=[Link(kind=k, version_id=v, fact_id=i) for k, v, i in links],
                          earlier=earlier)


def kinds(changes) -> list[tuple[str, str]]:
    return [(c.kind.value, c.fact_id) for c in changes]


@pytest.mark.parametrize("ended_by, kind", [
    ("correction", "corrected"), ("range_write", "corrected"), ("end", "ended"), ("retraction", "retracted"),
    ("merge", "merged"), ("resolution", "conflict_resolved"), ("state_change", "state_changed"),
])
def test_a_closed_version_is_the_change_its_end_names(ended_by, kind):
    old = touched(fact("f_1", "v_1", known_to=W, ended_by=ended_by, end_reason="why", statement="old"))
    new = touched(fact("f_1", "v_2", known_from=W, statement="new"), ("correction", "v_1", "f_1"), earlier=True)
    [change] = belief_changes([old, new], [], [], known_a=A, known_b=B)
    assert (change.kind.value, change.at, change.reason) == (kind, W, "why")
    assert change.before.statement == "old" and [v.statement for v in change.after] == ["new"]


def test_a_succession_names_the_ended_version_and_the_successor():
    old = touched(fact("f_1", "v_1", known_to=W, ended_by="succession", statement="Alice"))
    ended = touched(fact("f_1", "v_2", known_from=W, statement="Alice", valid_to=T0), ("succession", "v_1", "f_1"),
                    earlier=True)
    successor = touched(fact("f_2", "v_3", known_from=W, statement="Bob"), ("succession", "v_2", "f_1"))
    [change] = belief_changes([old, ended, successor], [], [], known_a=A, known_b=B)
    assert change.kind.value == "superseded" and change.after[0].valid_to == T0
    assert (change.successor.fact_id, change.successor.statement) == ("f_2", "Bob")  # not an addition of its own


@pytest.mark.parametrize("at, listed", [
    (A, False),  # the window's start is excluded: it is the baseline
    (A + timedelta(microseconds=1), True),
    (B, True),  # its end is included
    (B + timedelta(microseconds=1), False),
])
def test_the_window_excludes_its_start_and_includes_its_end(at, listed):
    added = touched(fact("f_1", "v_1", known_from=at))
    assert kinds(belief_changes([added], [], [], known_a=A, known_b=B)) == ([("added", "f_1")] if listed else [])


def test_a_later_version_of_a_known_fact_is_no_addition_and_one_write_adds_a_fact_once():
    later = touched(fact("f_1", "v_2", known_from=W), earlier=True)  # its closed predecessor lies outside or is hidden
    pieces = [touched(fact("f_2", f"v_{i}", known_from=W)) for i in (3, 4)]  # a fact begun as two versions
    changes = belief_changes([later, *pieces], [], [], known_a=A, known_b=B)
    assert kinds(changes) == [("added", "f_2")] and len(changes[0].after) == 2


def test_flags_are_stale_with_their_cause_forgotten_once_per_fact_or_a_state_change():
    version = fact("f_1", "v_1")
    flags = [FlagRaised(fact=version, state="stale", at=W, kind="cascade", cause="premise f_9 retracted"),
             FlagRaised(fact=fact("f_2", "v_2"), state="deprecated", at=W, kind="deprecate", reason="outdated"),
             *[FlagRaised(fact=fact("f_3", f"v_{i}"), state="forgotten", at=W, kind="forget") for i in (3, 4)]]
    changes = belief_changes([], flags, [], known_a=A, known_b=B)
    assert kinds(changes) == [("state_changed", "f_2"), ("forgotten", "f_3"), ("stale", "f_1")]
    assert changes[0].reason == "outdated" and changes[0].after[0].state == "deprecated"
    assert changes[2].cause == "premise f_9 retracted" and changes[2].reason is None


def test_nothing_of_a_forgotten_fact_is_named_in_any_of_its_changes():
    gone = Tombstone(forgotten_at=W, by="k", reason="asked")
    added = touched(fact("f_1", "v_1", known_from=W, statement="secret words", tombstone=gone))
    retracted = touched(fact("f_2", "v_2", known_to=W, ended_by="retraction", end_reason="secret words"))
    flag = FlagRaised(fact=fact("f_2", "v_2"), state="forgotten", at=W + timedelta(hours=1), kind="forget")
    changes = belief_changes([added, retracted], [flag], [], known_a=A, known_b=B)
    assert kinds(changes) == [("added", "f_1"), ("retracted", "f_2"), ("forgotten", "f_2")]
    assert "secret words" not in "".join(c.model_dump_json() for c in changes)


def test_a_conflict_opened_names_its_sides_and_a_resolution_its_conflict():
    challenger = fact("f_2", "v_2", known_from=W, state="conflicted", statement="Bob")
    established = fact("f_1", "v_1", statement="Alice")
    opened = Dispute(conflict_id="c_1", opened_at=W, challenger=challenger, established=established)
    later = W + timedelta(days=1)
    closed = touched(fact("f_2", "v_2", known_from=W, known_to=later, ended_by="resolution", end_reason="reject",
                          state="conflicted"))
    result = touched(fact("f_2", "v_5", known_from=later, state="rejected"), ("resolution", "v_2", "f_2"), earlier=True)
    resolved = Dispute(conflict_id="c_1", resolved_at=later, decision="reject", challenger=closed.fact,
                       established=established)
    changes = belief_changes([closed, result], [], [opened, resolved], known_a=A, known_b=B)
    assert kinds(changes) == [("added", "f_2"), ("conflict_opened", "f_2"), ("conflict_resolved", "f_2")]
    assert [v.version_id for v in changes[0].after] == ["v_2"]
    assert [v.statement for v in changes[1].against] == ["Alice"] and changes[1].conflict_id == "c_1"
    assert changes[2].conflict_id == "c_1" and changes[2].reason == "reject" and changes[2].after[0].state == "rejected"


def test_an_empty_window_reads_no_change():
    assert belief_changes([], [], [], known_a=A, known_b=B) == []
