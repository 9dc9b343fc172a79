"""Who is who: holders, relations and paths on a small org graph, at several valid and known times."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput, NotFound


@pytest.fixture
def org(store, clock):
    """Given a small organisation whose history was recorded in two sittings."""
    clock.at("2024-01-09")
    store.define_predicate("member_of", cardinality="multi", inverse="has_member")
    store.define_predicate("reports_to", cardinality="single", inverse="manages")
    store.define_predicate("holds_role", cardinality="single", inverse="held_by")
    store.add_fact("Ann", "member_of", "Platform", valid_from="2023-01-01")
    store.add_fact("Ben", "member_of", "Platform", valid_from="2023-06-01")
    store.add_fact("Cid", "member_of", "Search", valid_from="2023-01-01")
    ann_role = store.add_fact("Ann", "holds_role", "Tech Lead", valid_from="2023-01-01")
    ben_boss = store.add_fact("Ben", "reports_to", "Ann", valid_from="2023-06-01")
    store.add_fact("Ann", "reports_to", "Dee", valid_from="2023-01-01")
    store.add_fact("Cid", "reports_to", "Dee", valid_from="2023-01-01")
    first_sitting = clock.at("2024-01-11")
    clock.at("2024-07-05")
    store.succeed_fact(ann_role.fact_id, object="Director", at="2024-07-01")
    ben_role = store.add_fact("Ben", "holds_role", "Tech Lead", valid_from="2024-07-01")
    store.succeed_fact(ben_boss.fact_id, object="Dee", at="2024-07-01")
    return {"first_sitting": first_sitting, "ben_role": ben_role}


def names(facts):
    return sorted(f.subject for f in facts)


def test_holders_of_a_role_change_with_valid_time(store, org):
    assert names(store.holders("holds_role", "Tech Lead", valid_at="2024-03-01")) == ["Ann"]
    assert names(store.holders("holds_role", "Tech Lead", valid_at="2024-08-01")) == ["Ben"]
    assert names(store.holders("holds_role", "Director", valid_at="2024-08-01")) == ["Ann"]
    assert names(store.holders("member_of", "Platform", valid_at="2023-03-01")) == ["Ann"]
    assert names(store.holders("member_of", "Platform", valid_at="2023-07-01")) == ["Ann", "Ben"]


def test_holders_as_known_at_an_earlier_time_ignore_later_knowledge(store, org):
    early = org["first_sitting"]
    assert names(store.holders("holds_role", "Tech Lead", valid_at="2024-08-01", known_at=early)) == ["Ann"]
    assert names(store.holders("holds_role", "Director", valid_at="2024-08-01", known_at=early)) == []


def test_relations_read_both_directions_under_inverse_names(store, org):
    rels = {(r.direction, r.predicate, r.other) for r in store.relations("Ann", valid_at="2024-03-01")}
    assert rels == {("out", "member_of", "Platform"), ("out", "holds_role", "Tech Lead"), ("out", "reports_to", "Dee"),
                    ("in", "manages", "Ben")}
    later = {(r.direction, r.predicate, r.other) for r in store.relations("Ann", valid_at="2024-08-01")}
    assert ("in", "manages", "Ben") not in later and ("out", "holds_role", "Director") in later


def test_path_between_two_people_depends_on_the_point(store, org):
    before = store.path("Ben", "Dee", valid_at="2024-03-01")
    assert [(s.source, s.predicate, s.target) for s in before] == [("Ben", "reports_to", "Ann"), ("Ann", "reports_to", "Dee")]
    after = store.path("Ben", "Dee", valid_at="2024-08-01")
    assert [(s.source, s.predicate, s.target) for s in after] == [("Ben", "reports_to", "Dee")]
    old_belief = store.path("Ben", "Dee", valid_at="2024-08-01", known_at=org["first_sitting"])
    assert len(old_belief) == 2
    assert store.path("Ben", "Cid", valid_at="2022-01-01") is None
    assert len(store.path("Ben", "Cid", valid_at="2024-03-01")) == 3


def test_unknown_entities_and_bad_hops_are_precise_errors(store, org):
    with pytest.raises(NotFound):
        store.relations("Nobody")
    with pytest.raises(InvalidInput) as err:
        store.path("Ann", "Ben", max_hops=0)
    assert err.value.field == "max_hops"


def test_merged_entities_read_as_one_and_unmerge_restores_them(store, clock):
    store.add_fact("Robert", "member_of", "Search", valid_from="2024-01-01")
    store.add_fact("Bob", "holds_role", "SRE", valid_from="2024-01-01")
    merged = store.merge_entities("Robert", "Bob")
    assert "Bob" in merged.aliases
    rels = {(r.predicate, r.other) for r in store.relations("Robert", valid_at="2024-06-01")}
    assert rels == {("member_of", "Search"), ("holds_role", "SRE")}
    assert {(r.predicate, r.other) for r in store.relations("bob", valid_at="2024-06-01")} == rels
    store.unmerge_entities("Bob")
    assert {(r.predicate, r.other) for r in store.relations("Robert", valid_at="2024-06-01")} == {("member_of", "Search")}
    assert {(r.predicate, r.other) for r in store.relations("Bob", valid_at="2024-06-01")} == {("holds_role", "SRE")}
