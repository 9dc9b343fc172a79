"""The conflict rule of DESIGN §4 and range splitting, as pure functions (table-driven)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo.schema.facts import Fact, ObjectValue
from credo.schema.lifecycle import SERVED, TRANSITIONS, State, check_transition
from credo.schema.errors import TransitionRefused
from credo.services.facts.rules import decide_write, established, split_outside

UTC = timezone.utc


def D(y, m=1, d=1):
    return datetime(y, m, d, tzinfo=UTC)


def fact(value, start, end=None, *, state="active", scope=None, known_to=None):
    return Fact(tenant="t", fact_id=f"f_{value}", version_id=f"v_{value}", subject="s", subject_id="e_s",
                predicate="p", object=ObjectValue(type="string", value=value), object_name=value, statement=value,
                state=state, valid_from=start, valid_to=end, known_from=D(2020), known_to=known_to, scope=scope or {})


def key(value):
    return ("string", value)


@pytest.mark.parametrize(
    "new, current, cardinality, outcome",
    [
        # a new open-ended value starting before the established one lands in history, bounded
        (("June", D(2025, 6), None), [fact("Aug", D(2025, 8))], "single", "bound"),
        # open-ended, starting after an open-ended established value: changing it needs an explicit act
        (("Bob", D(2025, 8), None), [fact("Alice", D(2025, 1))], "single", "conflict"),
        # dated range contradicting what is established
        (("Ads", D(2025, 6), D(2025, 9)), [fact("Aug", D(2025, 8))], "single", "conflict"),
        # no overlap at all: plain history
        (("Old", D(2023, 1), D(2024, 1)), [fact("New", D(2025, 1))], "single", "admit"),
        # equal instants: [2024, 2025) and [2025, …) touch but do not overlap
        # the same value restated inside its interval is a duplicate
        (("Alice", D(2025, 2), None), [fact("Alice", D(2025, 1))], "single", "duplicate"),
        # multi-valued predicates never conflict
        (("Bob", D(2025, 8), None), [fact("Alice", D(2025, 1))], "multi", "admit"),
        # an unknown start cannot be placed before anything: conflict
        (("Bob", None, None), [fact("Alice", D(2025, 1))], "single", "conflict"),
        # nothing established
        (("Bob", D(2025, 8), None), [], "single", "admit"),
    ],
)
def test_a_new_write_may_add_history_but_not_change_established_knowledge(new, current, cardinality, outcome):
    value, start, end = new
    decision = decide_write(object_key=key(value), valid_from=start, valid_to=end, cardinality=cardinality,
                            current=current)
    assert decision.outcome == outcome


def test_a_bounded_write_ends_at_the_earliest_later_start():
    decision = decide_write(object_key=key("June"), valid_from=D(2025, 6), valid_to=None, cardinality="single",
                            current=[fact("Sep", D(2025, 9)), fact("Aug", D(2025, 8), D(2025, 9))])
    assert decision.outcome == "bound" and decision.bound_to == D(2025, 8)


def test_only_served_believed_versions_in_the_same_scope_are_established():
    pool = [fact("a", D(2025)), fact("b", D(2025), state="conflicted"), fact("c", D(2025), scope={"env": "staging"}),
            fact("d", D(2025), known_to=D(2025, 2)), fact("e", D(2025), state="candidate")]
    assert [f.object_name for f in established(pool, {})] == ["a"]


@pytest.mark.parametrize(
    "start, end, pieces",
    [
        (D(2025, 2), D(2025, 3), [(D(2025, 1), D(2025, 2)), (D(2025, 3), None)]),
        (D(2024, 1), D(2025, 3), [(D(2025, 3), None)]),
        (D(2025, 1), D(2030, 1), [(D(2030, 1), None)]),
    ],
)
def test_range_split_keeps_the_parts_outside_the_range(start, end, pieces):
    hit, rest = split_outside([fact("x", D(2025, 1))], start, end)
    assert len(hit) == 1 and [(p.valid_from, p.valid_to) for p in rest] == pieces


def test_range_split_ignores_versions_outside_the_range():
    hit, rest = split_outside([fact("x", D(2025, 1), D(2025, 2))], D(2025, 2), D(2025, 3))
    assert hit == [] and rest == []


def test_lifecycle_table_refuses_what_it_does_not_list():
    assert SERVED == {State.ACTIVE, State.REINFORCED}
    with pytest.raises(TransitionRefused):
        check_transition("f_x", "conflicted", "reinforced")
    for state in (State.FORGOTTEN, State.DELETED):
        assert not (TRANSITIONS[state] & SERVED)
    assert TRANSITIONS[State.FORGOTTEN] == {State.DELETED}


@pytest.mark.parametrize("spans, gap", [
    ([(D(2020), D(2022)), (D(2022), D(2024))], None),                      # equal instants touch
    ([(D(2020), D(2022)), (D(2023), D(2025))], (D(2022), D(2023))),         # two stints
    ([(D(2023), D(2025)), (D(2020), D(2022))], (D(2022), D(2023))),         # in any order
    ([(D(2020), None), (D(2023), D(2025))], None),                          # an open end covers what follows
    ([(None, D(2021)), (D(2023), None)], (D(2021), D(2023))),               # an unknown start does not close a gap
    ([(None, D(2022)), (D(2021), D(2023)), (D(2023), None)], None),
])
def test_gap_between_merge_inputs(spans, gap):
    from credo.services.facts.merge import gap_between

    assert gap_between([fact(str(i), s, e) for i, (s, e) in enumerate(spans)]) == gap
