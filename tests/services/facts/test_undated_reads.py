"""Issue 8 §2: a read never silently drops undated facts (unknown valid_from); it returns them apart, marked."""

from __future__ import annotations

import pytest


def shown(found):
    return [(f.value, f.undated) for f in found]


def test_a_fact_recorded_without_a_start_is_read_back_marked_undated(store, clock):
    # given a claim recorded with no valid_from
    clock.at("2025-03-01")
    store.add_fact("orders-db", "schema_version", "v7")
    # when the subject is read at the default point
    found = store.facts("orders-db")
    # then v7 is there, marked undated, and apart from the (empty) dated answer
    assert shown(found) == [("v7", True)]
    assert found.dated == [] and [f.value for f in found.undated] == ["v7"]


def test_undated_facts_follow_the_dated_answer_and_never_count_as_it(store, clock):
    # given a dated and an undated language of the same person
    clock.at("2025-03-01")
    store.define_predicate("speaks", cardinality="multi")
    store.add_fact("Hank", "speaks", "Welsh")
    store.add_fact("Hank", "speaks", "English", valid_from="2020-01-01")
    # when read inside the dated fact's interval
    found = store.facts("Hank", "speaks", valid_at="2024-01-01")
    # then the dated answer comes first, the undated one after it, each marked
    assert shown(found) == [("English", False), ("Welsh", True)]
    assert [f.value for f in found.dated] == ["English"] and [f.value for f in found.undated] == ["Welsh"]
    # and before the dated start only the undated one may hold
    early = store.facts("Hank", "speaks", valid_at="1900-01-01")
    assert early.dated == [] and shown(early) == [("Welsh", True)]


def test_include_undated_false_returns_only_the_dated_answer(store, clock):
    clock.at("2025-03-01")
    store.define_predicate("speaks", cardinality="multi")
    store.add_fact("Hank", "speaks", "Welsh")
    store.add_fact("Hank", "speaks", "English", valid_from="2020-01-01")
    assert shown(store.facts("Hank", "speaks", include_undated=False)) == [("English", False)]


@pytest.mark.parametrize(
    "valid_at, expected",
    [("2023-12-31", [("v6", True)]), ("2024-01-01", []), ("2024-06-01", [])],
)
def test_an_undated_fact_that_ended_before_the_point_is_not_returned(store, clock, valid_at, expected):
    # given a version whose start is unknown but whose end is known (half-open: ends at 2024-01-01)
    clock.at("2025-03-01")
    store.add_fact("orders-db", "schema_version", "v6", valid_to="2024-01-01")
    assert shown(store.facts("orders-db", valid_at=valid_at)) == expected


def test_undated_facts_read_at_a_past_known_time_stay_reproducible(store, clock):
    # given a read before the undated fact was recorded, one while it was believed, and its retraction
    before = clock.at("2025-03-01")
    v7 = store.add_fact("orders-db", "schema_version", "v7")
    believed = clock.at("2025-03-05")
    clock.at("2025-03-10")
    store.retract_fact(v7.fact_id, reason="never deployed")
    # then each known time gives its own answer, however much was written later
    assert shown(store.facts("orders-db", known_at=before)) == []
    assert shown(store.facts("orders-db", known_at=believed)) == [("v7", True)]
    assert shown(store.facts("orders-db")) == []


def test_holders_report_undated_holders_apart_from_the_dated_ones(store, clock):
    # given one dated and one undated member of a team
    clock.at("2025-03-01")
    store.define_predicate("member_of", cardinality="multi")
    store.add_fact("Ann", "member_of", "Platform", valid_from="2023-01-01")
    store.add_fact("Ben", "member_of", "Platform")
    # when asked who was a member at a point
    found = store.holders("member_of", "Platform", valid_at="2024-01-01")
    # then Ann is the dated answer and Ben follows, marked undated
    assert [(f.subject, f.undated) for f in found] == [("Ann", False), ("Ben", True)]
    assert [f.subject for f in found.dated] == ["Ann"] and [f.subject for f in found.undated] == ["Ben"]
    # and a literal object reads the same way
    store.add_fact("Cid", "badge", 42)
    assert [(f.subject, f.undated) for f in store.holders("badge", 42)] == [("Cid", True)]


def test_relations_report_undated_relations_apart_in_both_directions(store, clock):
    # given Ann's dated team and her undated manager, and an undated report of hers
    clock.at("2025-03-01")
    store.define_predicate("reports_to", cardinality="single", inverse="manages")
    store.add_fact("Ann", "member_of", "Platform", valid_from="2023-01-01")
    store.add_fact("Ann", "reports_to", "Dee")
    store.add_fact("Ben", "reports_to", "Ann")
    # when her relations are read
    found = store.relations("Ann", valid_at="2024-01-01")
    # then the dated relation comes first and the undated ones after it, each marked
    assert [(r.direction, r.predicate, r.other, r.undated) for r in found] == [
        ("out", "member_of", "Platform", False), ("out", "reports_to", "Dee", True), ("in", "manages", "Ben", True),
    ]
    assert [r.other for r in found.dated] == ["Platform"] and [r.other for r in found.undated] == ["Dee", "Ben"]


def test_an_undated_relation_ended_before_the_point_is_not_a_relation(store, clock):
    clock.at("2025-03-01")
    store.add_fact("Ann", "reports_to", "Dee", valid_to="2024-01-01")
    assert [r.other for r in store.relations("Ann", valid_at="2023-01-01")] == ["Dee"]
    assert store.relations("Ann", valid_at="2024-06-01") == []


def test_path_prefers_a_dated_chain_and_marks_undated_hops_when_it_needs_them(store, clock):
    # given Ben -> Ann -> Dee dated, and a direct but undated Ben -> Dee
    clock.at("2025-03-01")
    store.define_predicate("knows", cardinality="multi")
    store.add_fact("Ben", "knows", "Ann", valid_from="2023-01-01")
    store.add_fact("Ann", "knows", "Dee", valid_from="2023-01-01")
    store.add_fact("Ben", "knows", "Dee")
    # when a dated chain exists, it is the answer, though longer than the undated hop
    dated = store.path("Ben", "Dee", valid_at="2024-01-01")
    assert [(s.source, s.target, s.undated) for s in dated] == [("Ben", "Ann", False), ("Ann", "Dee", False)]
    # and before the dated facts start, the undated hop joins them, marked on the step
    undated = store.path("Ben", "Dee", valid_at="2022-01-01")
    assert [(s.source, s.target, s.undated) for s in undated] == [("Ben", "Dee", True)]
    # and an undated relation ended before the point joins nothing
    store.add_fact("Ann", "knows", "Eve", valid_to="2021-01-01")
    assert store.path("Ann", "Eve", valid_at="2022-01-01") is None
    assert [s.undated for s in store.path("Ann", "Eve", valid_at="2020-01-01")] == [True]


def test_the_undated_mark_travels_in_the_json_of_a_fact_and_a_relation(store, clock):
    clock.at("2025-03-01")
    store.add_fact("orders-db", "schema_version", "v7")
    store.add_fact("orders-db", "owned_by", "Ann", valid_from="2024-01-01")
    assert [f.model_dump(mode="json")["undated"] for f in store.facts("orders-db")] == [False, True]
    assert [r.model_dump(mode="json")["undated"] for r in store.relations("orders-db")] == [False, True]
