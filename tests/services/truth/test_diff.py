"""The belief diff (DESIGN.md §11, issue 27 item 2): what the store believed differently between two known times.

A mixed timeline is written with a controlled clock, one write per day of February 2025; the oracle is built from
the test's own writes (the change each made, the fact it named, the day it was made on) and the diff must list
exactly those between the two known times, in known-time order, and nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import pytest

from credo.schema.api_keys import Principal
from credo.schema.errors import InvalidInput
from credo.schema.time import parse_instant

FORGOTTEN_TEXT = "Carol earns 91234 a year"


@dataclass
class Timeline:
    """The writes of the scenario: the oracle (kind, fact id, the day the write was made) and the facts named."""

    oracle: list[tuple[str, str, datetime]]
    facts: dict[str, str]  # name -> fact id
    secret: str

    def between(self, a: datetime, b: datetime) -> list[tuple[str, str, datetime]]:
        """The oracle's changes made after `a` and at or before `b` (each write is made just after its day starts)."""
        return [(kind, fact_id, day) for kind, fact_id, day in self.oracle if a <= day < b]


def _day(n: int) -> datetime:
    return parse_instant(f"2025-02-{n:02d}", "day")


@pytest.fixture
def timeline(store, clock) -> Timeline:
    # given, on 2025-01-01 (before every window), the facts the timeline changes
    clock.at("2025-01-01")
    owner = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    role = store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01")
    lease = store.add_fact("Office lease", "held_by", "Acme", valid_from="2024-01-01")
    rumour = store.add_fact("Acme", "acquires", "Initech", valid_from="2024-05-01")
    key = store.add_fact("payments", "signing_key", "K1", valid_from="2024-01-01")
    rule = store.add_fact("Rotate K1 before 2026", "is", "rule", statement="Rotate K1 before 2026",
                          depends_on=[key.fact_id], valid_from="2025-01-01")
    salary = store.add_fact("Carol", "earns", "91234 a year", statement=FORGOTTEN_TEXT, valid_from="2024-01-01")
    oracle: list[tuple[str, str, datetime]] = []

    def on(day: int, *changes: tuple[str, str]) -> None:
        oracle.extend((kind, fact_id, _day(day)) for kind, fact_id in changes)

    # when, one write a day
    clock.at(_day(1))
    dana = store.add_fact("Dana", "leads", "Platform team", valid_from="2024-01-01")
    on(1, ("added", dana.fact_id))
    clock.at(_day(2))
    store.correct_fact(role.fact_id, object="staff engineer")
    on(2, ("corrected", role.fact_id))
    clock.at(_day(3))
    successor = store.succeed_fact(owner.fact_id, object="Bob", at="2024-06-01")
    on(3, ("superseded", owner.fact_id))
    clock.at(_day(4))
    store.end_fact(lease.fact_id, at="2024-09-01")
    on(4, ("ended", lease.fact_id))
    clock.at(_day(5))
    store.retract_fact(rumour.fact_id, reason="it was a rumour")
    on(5, ("retracted", rumour.fact_id))
    clock.at(_day(6))
    store.retract_fact(key.fact_id, reason="the key was revoked")  # the rule resting on it goes stale
    on(6, ("retracted", key.fact_id), ("stale", rule.fact_id))
    clock.at(_day(7))
    secret = store.add_fact("Project Falcon", "budget", "12 million", valid_from="2025-01-01", sensitivity="secret")
    on(7, ("added", secret.fact_id))
    clock.at(_day(8))
    store.forget(salary.fact_id, reason="Carol asked to be forgotten", actor="Carol")
    on(8, ("forgotten", salary.fact_id))
    clock.at(_day(9))
    erin = store.add_fact("Erin", "joins", "Platform team", valid_from="2025-02-09")
    on(9, ("added", erin.fact_id))
    names = {"owner": owner.fact_id, "successor": successor.fact_id, "role": role.fact_id, "lease": lease.fact_id,
             "rumour": rumour.fact_id, "key": key.fact_id, "rule": rule.fact_id, "salary": salary.fact_id}
    return Timeline(oracle, names, secret.fact_id)


def listed(diff) -> list[tuple[str, str, datetime]]:
    """The diff's changes as the oracle writes them: kind, fact id and the day the change was made."""
    return [(c.kind.value, c.fact_id, c.at.replace(hour=0, minute=0, second=0, microsecond=0)) for c in diff.changes]


def test_the_diff_between_two_known_times_lists_exactly_the_changes_made_between_them(store, timeline):
    # when the diff is read from before the first write of February to after the last
    a, b = parse_instant("2025-01-31", "a"), _day(10)
    diff = store.diff(a, b)
    # then it lists exactly the oracle's changes, in known-time order, and nothing else (the setup of January is out)
    assert listed(diff) == timeline.between(a, b)
    assert [c.at for c in diff.changes] == sorted(c.at for c in diff.changes)
    assert diff.known_a == a and diff.known_b == b


def test_a_window_excluding_the_first_and_last_writes_lists_only_what_lies_between(store, timeline):
    # when the window starts after the first write and ends before the last
    a, b = _day(2), _day(9)
    diff = store.diff(a, b)
    # then the first write (Dana added) and the last (Erin added) are not in it; everything between is
    assert listed(diff) == timeline.between(a, b)
    kinds = [c.kind.value for c in diff.changes]
    assert kinds[0] == "corrected" and kinds[-1] == "forgotten" and "added" in kinds  # the secret fact, on day 7
    # and a known time given as text or as an instant reads the same window
    assert listed(store.diff("2025-02-02", "2025-02-09")) == listed(diff)


def test_each_change_says_what_happened_to_the_belief(store, timeline):
    changes = {(c.kind.value, c.fact_id): c for c in store.diff("2025-01-31", "2025-02-10").changes}
    facts = timeline.facts
    # a correction: the old version and the new one of the same fact, with what each said
    corrected = changes[("corrected", facts["role"])]
    assert corrected.before.object == "engineer" and [v.object for v in corrected.after] == ["staff engineer"]
    assert corrected.before.version_id != corrected.after[0].version_id
    # a succession: the ended fact (its valid time now ends where the successor starts) and its successor
    superseded = changes[("superseded", facts["owner"])]
    assert superseded.after[0].valid_to == parse_instant("2024-06-01", "at")
    assert superseded.successor.fact_id == facts["successor"] and superseded.successor.object == "Bob"
    # an end: the same fact with its valid time ended, no successor
    ended = changes[("ended", facts["lease"])]
    assert ended.after[0].valid_to == parse_instant("2024-09-01", "at") and ended.successor is None
    # a retraction keeps its reason; the dependent went stale, its cause naming the retracted premise
    assert changes[("retracted", facts["rumour"])].reason == "it was a rumour"
    stale = changes[("stale", facts["rule"])]
    assert facts["key"] in stale.cause and "retraction" in stale.cause
    assert stale.after[0].statement == "Rotate K1 before 2026" and stale.after[0].state == "stale"


def test_a_forgotten_fact_is_a_tombstone_without_its_content(store, timeline):
    # when a diff covers the forget (and, reading from before the setup, the forgotten fact's addition too)
    for a in ("2025-01-31", "2024-12-31"):
        diff = store.diff(a, "2025-02-10")
        [tombstone] = [c for c in diff.changes if c.kind.value == "forgotten"]
        # then its entry is the id and when, nothing more, and nothing of the content is anywhere in the answer
        assert tombstone.fact_id == timeline.facts["salary"] and tombstone.before is None and tombstone.after == []
        assert tombstone.reason is None and tombstone.cause is None
        text = diff.model_dump_json()
        assert "91234" not in text and FORGOTTEN_TEXT not in text and "Carol" not in text
    added = [c for c in store.diff("2024-12-31", "2025-02-10").changes if c.fact_id == timeline.facts["salary"]]
    assert [c.kind.value for c in added] == ["added", "forgotten"]
    assert added[0].after[0].statement is None and added[0].after[0].object is None


def test_a_fact_above_the_callers_clearance_does_not_appear(store, timeline):
    # given a handle cleared for internal labels only
    low = store.for_principal(Principal(tenant=store.tenant, clearance="internal"))
    a, b = parse_instant("2025-01-31", "a"), _day(10)
    # when it reads the diff, then the secret fact added on day 7 is not in it, and everything else is
    diff = low.diff(a, b)
    assert timeline.secret not in {c.fact_id for c in diff.changes}
    assert listed(diff) == [row for row in timeline.between(a, b) if row[1] != timeline.secret]
    assert "Falcon" not in diff.model_dump_json() and "12 million" not in diff.model_dump_json()
    # while a caller cleared for all sees it
    assert timeline.secret in {c.fact_id for c in store.diff(a, b).changes}


def test_subject_and_scope_narrow_the_diff(store, clock, timeline):
    a, b = "2025-01-31", "2025-02-10"
    about_bob = store.diff(a, b, subject="Bob")
    assert [(c.kind.value, c.fact_id) for c in about_bob.changes] == [("corrected", timeline.facts["role"])]
    assert store.diff(a, b, subject="Nobody we know").changes == []
    clock.at("2025-03-01")
    scoped = store.add_fact("deploys", "run_on", "Fridays", scope={"env": "production"}, valid_from="2025-01-01")
    store.add_fact("deploys", "run_on", "Mondays", scope={"env": "staging"}, valid_from="2025-01-01")
    found = store.diff("2025-02-28", "2025-03-02", scope={"env": "production"})
    assert [(c.kind.value, c.fact_id) for c in found.changes] == [("added", scoped.fact_id)]


def test_conflicts_opened_and_resolved_are_changes_too(store, clock):
    clock.at("2025-01-01")
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    clock.at("2025-02-01")
    bob = store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-03-01")  # kept as conflicted
    [conflict] = store.conflicts()
    clock.at("2025-02-02")
    store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-03-01")
    changes = [(c.kind.value, c.fact_id, c.conflict_id) for c in store.diff("2025-01-31", "2025-02-03").changes]
    assert changes == [("added", bob.fact_id, None), ("conflict_opened", bob.fact_id, conflict.conflict_id),
                       ("superseded", alice.fact_id, None),
                       ("conflict_resolved", bob.fact_id, conflict.conflict_id)]
    opened = store.diff("2025-01-31", "2025-02-01T12:00:00+00:00").changes[1]
    assert [v.fact_id for v in opened.against] == [alice.fact_id]


@pytest.mark.parametrize("a, b", [
    ("2025-02-02", "2025-02-01"),  # the later time first
    ("2025-02-01", "2025-02-01"),  # equal instants: an empty window is refused, not answered empty
    ("2025-02-01T00:00:00+00:00", "2025-02"),  # month precision: 2025-02-01T00:00, equal again
])
def test_known_a_must_be_before_known_b(store, a, b):
    with pytest.raises(InvalidInput) as refused:
        store.diff(a, b)
    assert refused.value.field == "known_b" and "after known_a" in refused.value.rule


def test_a_naive_known_time_is_refused_naming_its_field(store):
    with pytest.raises(InvalidInput) as refused:
        store.diff("2025-02-01T00:00:00", "2025-02-02")
    assert refused.value.field == "known_a"


def test_nothing_changed_is_an_empty_diff(store, clock):
    clock.at("2025-01-01")
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    assert store.diff("2025-01-02", "2025-01-04").changes == []


def test_a_dependent_gone_stale_names_a_premise_above_the_clearance_by_id_only(store, clock):
    # given a public rule resting on a secret premise, and the premise retracted
    clock.at("2025-01-01")
    premise = store.add_fact("Project Falcon", "budget", "12 million", valid_from="2025-01-01", sensitivity="secret")
    rule = store.add_fact("Falcon spending", "needs", "board approval", valid_from="2025-01-01", sensitivity="public",
                          statement="Spending needs board approval", depends_on=[premise.fact_id])
    clock.at("2025-02-01")
    store.retract_fact(premise.fact_id, reason="the budget was cut")
    # when a reader cleared for internal labels reads the diff
    low = store.for_principal(Principal(tenant=store.tenant, clearance="internal"))
    diff = low.diff("2025-01-15", "2025-03-01")
    # then it sees its rule went stale, the premise named by its id only, and nothing of the retraction itself
    assert [(c.kind.value, c.fact_id) for c in diff.changes] == [("stale", rule.fact_id)]
    assert premise.fact_id in diff.changes[0].cause
    assert "12 million" not in diff.model_dump_json() and "budget was cut" not in diff.model_dump_json()
