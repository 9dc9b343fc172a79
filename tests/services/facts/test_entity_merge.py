"""Entity merges are bitemporal: a read at a known time sees the merges believed then, before and after."""

from __future__ import annotations

import pytest

from credo.schema.errors import ConflictError, InvalidInput

VALID = "2024-06-01"


@pytest.fixture
def two_names(store, clock):
    """Given Bob and Robert recorded as two entities (later found to be one person)."""
    clock.at("2024-07-01")
    store.add_fact("Bob", "holds_role", "SRE", valid_from="2024-01-01")
    store.add_fact("Robert", "works_at", "Acme", valid_from="2024-01-01")
    store.add_fact("Ann", "reports_to", "Bob", valid_from="2024-01-01")
    last = store.add_fact("Cid", "reports_to", "Robert", valid_from="2024-01-01")
    return last.known_from


def facts_of(store, name, known_at=None):
    return sorted((f.predicate, f.object_name) for f in store.facts(name, valid_at=VALID, known_at=known_at))


def relations_of(store, name, known_at=None):
    return sorted((r.direction, r.predicate, r.other) for r in store.relations(name, valid_at=VALID, known_at=known_at))


def holders_of(store, name, known_at=None):
    return sorted(f.subject for f in store.holders("reports_to", name, valid_at=VALID, known_at=known_at))


def snapshot(store, known_at):
    return {
        "facts": facts_of(store, "Bob", known_at), "relations": relations_of(store, "Bob", known_at),
        "holders": holders_of(store, "Bob", known_at),
        "path": store.path("Ann", "Robert", valid_at=VALID, known_at=known_at),
        "robert": facts_of(store, "Robert", known_at),
    }


def test_reads_at_a_known_time_before_a_merge_are_unchanged_by_it(store, clock, two_names):
    before = two_names
    # given what was believed before the merge
    seen = snapshot(store, before)
    assert seen["facts"] == [("holds_role", "SRE")]
    assert seen["holders"] == ["Ann"]
    assert seen["path"] is None
    # when Robert is merged into Bob
    clock.at("2024-08-01")
    store.merge_entities("Bob", "Robert")
    # then reads believed now see one entity...
    assert facts_of(store, "Bob") == [("holds_role", "SRE"), ("works_at", "Acme")]
    assert holders_of(store, "Bob") == ["Ann", "Cid"]
    assert [(s.source, s.target) for s in store.path("Ann", "Robert", valid_at=VALID)] == [("Ann", "Bob")]
    # ...and reads at the earlier known time give the same answer as before the merge
    assert snapshot(store, before) == seen


def test_reads_at_a_known_time_while_merged_keep_the_merged_view_after_unmerge(store, clock, two_names):
    # given Robert merged into Bob
    clock.at("2024-08-01")
    store.merge_entities("Bob", "Robert")
    merged_at = clock.at("2024-08-02")
    merged_view = snapshot(store, merged_at)
    assert merged_view["facts"] == [("holds_role", "SRE"), ("works_at", "Acme")]
    assert merged_view["relations"] == [("in", "reports_to (of)", "Ann"), ("in", "reports_to (of)", "Cid"),
                                        ("out", "holds_role", "SRE"), ("out", "works_at", "Acme")]
    # when the merge is undone
    clock.at("2024-09-01")
    store.unmerge_entities("Robert")
    # then reads now see two entities again, while reads at the merged time still see one
    assert facts_of(store, "Bob") == [("holds_role", "SRE")]
    assert facts_of(store, "Robert") == [("works_at", "Acme")]
    assert holders_of(store, "Bob") == ["Ann"]
    assert snapshot(store, merged_at) == merged_view


def test_a_read_at_a_known_time_between_merge_and_unmerge_and_after_both_differ(store, clock, two_names):
    # given a merge and its undoing, then a second merge the other way round
    clock.at("2024-08-01")
    store.merge_entities("Bob", "Robert")
    while_merged = clock.at("2024-08-02")
    clock.at("2024-09-01")
    store.unmerge_entities("Robert")
    apart = clock.at("2024-09-02")
    clock.at("2024-10-01")
    store.merge_entities("Robert", "Bob")
    # then each known time reads the merges believed then
    assert facts_of(store, "Bob", while_merged) == [("holds_role", "SRE"), ("works_at", "Acme")]
    assert facts_of(store, "Bob", apart) == [("holds_role", "SRE")]
    assert facts_of(store, "Robert", apart) == [("works_at", "Acme")]
    assert facts_of(store, "Bob") == facts_of(store, "Robert") == [("holds_role", "SRE"), ("works_at", "Acme")]


def test_merging_entities_whose_single_valued_facts_clash_is_refused_naming_the_clash(store, clock):
    # given Bob living in Paris and Robert in London over the same time
    clock.at("2024-07-01")
    store.add_fact("Bob", "lives_in", "Paris", valid_from="2024-01-01")
    store.add_fact("Robert", "lives_in", "London", valid_from="2024-01-01")
    # when they are merged
    with pytest.raises(ConflictError) as err:
        store.merge_entities("Bob", "Robert")
    # then the merge is refused, naming the clash, and nothing was written
    assert "lives_in" in str(err.value) and "Paris" in str(err.value) and "London" in str(err.value)
    assert [f.object_name for f in store.facts("Bob", valid_at=VALID)] == ["Paris"]
    assert [f.object_name for f in store.facts("Robert", valid_at=VALID)] == ["London"]
    assert store.conflicts() == []
    with pytest.raises(InvalidInput):
        store.unmerge_entities("Robert")


@pytest.mark.parametrize(
    "robert",
    [
        pytest.param({"object": "London", "valid_from": "2020-01-01", "valid_to": "2024-01-01"}, id="disjoint-valid-time"),
        pytest.param({"object": "Paris", "valid_from": "2024-01-01"}, id="same-object"),
        pytest.param({"object": "London", "valid_from": "2024-01-01", "scope": {"project": "x"}}, id="other-scope"),
    ],
)
def test_merging_entities_whose_single_valued_facts_do_not_clash_is_allowed(store, clock, robert):
    # given Bob in Paris from 2024 and a Robert fact that does not contradict it
    clock.at("2024-07-01")
    store.add_fact("Bob", "lives_in", "Paris", valid_from="2024-01-01")
    store.add_fact("Robert", "lives_in", robert.pop("object"), **robert)
    # when they are merged, then the merge goes through
    merged = store.merge_entities("Bob", "Robert")
    assert "Robert" in merged.aliases
