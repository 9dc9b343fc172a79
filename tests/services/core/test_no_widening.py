"""Issue 8 §4 timelines: no operation widens a claim or erases established knowledge without saying so."""

from __future__ import annotations

import pytest

from credo.schema.errors import ConflictError, InvalidInput


def served(store, subject, predicate, at, scope=None):
    kwargs = {"scope": scope} if scope is not None else {}
    return sorted((f.value, f.disputed) for f in store.facts(subject, predicate, valid_at=at, **kwargs))


# -- end_fact never extends validity ------------------------------------------------------------------------
@pytest.mark.parametrize("at", ["2024-06-01", "2024-03-01"])
def test_ending_a_fact_at_or_after_its_current_end_is_refused_and_writes_nothing(store, at):
    # given Alice owned Acme until March
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", valid_to="2024-03-01")
    # when it is "ended" in June (or again at its own end)
    with pytest.raises(InvalidInput) as err:
        store.end_fact(alice.fact_id, at=at)
    # then the end is refused on `at`, and April still serves nobody
    assert err.value.field == "at"
    assert served(store, "Acme", "owned_by", "2024-04-15") == []
    assert len(store.history(alice.fact_id)) == 1


def test_ending_a_fact_inside_its_validity_still_ends_it(store):
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", valid_to="2024-06-01")
    store.end_fact(alice.fact_id, at="2024-03-01")
    assert served(store, "Acme", "owned_by", "2024-04-15") == []
    assert served(store, "Acme", "owned_by", "2024-02-15") == [("Alice", False)]


# -- succeed_fact goes through the conflict rule of its target slot -------------------------------------------
def test_a_successor_into_a_scope_held_by_another_value_is_kept_as_a_conflict(store):
    # given Alice owns Acme (no scope) and Bob owns it in production, both from January
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-01-01", scope={"env": "production"})
    # when Alice's fact is succeeded by Carol in production from June
    carol = store.succeed_fact(alice.fact_id, object="Carol", at="2024-06-01", scope={"env": "production"})
    # then Carol waits as conflicted, Bob stays served but disputed, and one conflict is open
    assert carol.state == "conflicted"
    assert served(store, "Acme", "owned_by", "2024-07-01", scope={"env": "production"}) == [("Bob", True)]
    [conflict] = store.conflicts()
    assert conflict.challenger.fact_id == carol.fact_id and conflict.established.object_name == "Bob"
    # and the unscoped fact still ends at the succession point
    assert served(store, "Acme", "owned_by", "2024-07-01", scope={}) == []


def test_an_open_ended_successor_before_a_later_value_is_bounded_at_its_start(store):
    # given Alice owns Acme from January, and Dave owns it in production from September
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    dave = store.add_fact("Acme", "owned_by", "Dave", valid_from="2024-09-01", scope={"env": "production"})
    # when Alice is succeeded by Carol in production from June
    carol = store.succeed_fact(alice.fact_id, object="Carol", at="2024-06-01", scope={"env": "production"})
    # then Carol holds June to September (bounded as a new write would be), Dave from September
    assert carol.state == "active" and carol.bounded_by == dave.version_id
    assert served(store, "Acme", "owned_by", "2024-07-01", scope={"env": "production"}) == [("Carol", False)]
    assert served(store, "Acme", "owned_by", "2024-10-01", scope={"env": "production"}) == [("Dave", False)]
    assert store.conflicts() == []


def test_a_successor_whose_value_the_target_scope_already_holds_is_refused_naming_that_fact(store):
    # given Alice owns Acme, and Carol already owns it in production from January
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    carol = store.add_fact("Acme", "owned_by", "Carol", valid_from="2024-01-01", scope={"env": "production"})
    # when Alice is succeeded by Carol in production from June, then it is refused and nothing is written
    with pytest.raises(ConflictError) as err:
        store.succeed_fact(alice.fact_id, object="Carol", at="2024-06-01", scope={"env": "production"})
    assert carol.fact_id in str(err.value)
    assert len(store.history(alice.fact_id)) == 1
    assert served(store, "Acme", "owned_by", "2024-07-01", scope={}) == [("Alice", False)]


def test_a_plain_succession_is_unaffected_by_the_rule(store):
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    bob = store.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01")
    assert bob.state == "active"
    assert served(store, "Acme", "owned_by", "2024-07-01") == [("Bob", False)]
    assert served(store, "Acme", "owned_by", "2024-03-01") == [("Alice", False)]


# -- a correction replaces the established value only over the challenger's interval ----------------------------
def test_a_one_month_correction_replaces_the_established_value_only_for_that_month(store):
    # given Alice owns Acme from January and Bob, for August only, arrives as a challenger
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01", valid_to="2024-09-01")
    [conflict] = store.conflicts()
    # when the conflict is resolved as a correction
    store.resolve_conflict(conflict.conflict_id, decision="correction")
    # then Bob holds August, and Alice still holds before and after it, undisputed
    assert served(store, "Acme", "owned_by", "2024-08-15") == [("Bob", False)]
    assert served(store, "Acme", "owned_by", "2024-03-01") == [("Alice", False)]
    assert served(store, "Acme", "owned_by", "2024-10-01") == [("Alice", False)]
    assert store.conflicts() == []


def test_a_range_write_splitting_a_disputed_value_keeps_one_conflict_and_the_natural_succession(store):
    # given Alice owns Acme from January, disputed by Bob from August
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
    # when a range write puts Frank in March only (Alice is split around it)
    store.write_range("Acme", "owned_by", "Frank", valid_from="2024-03-01", valid_to="2024-04-01")
    # then the dispute is still one conflict, shown only on the piece Bob overlaps
    listed = store.conflicts()
    assert len(listed) == 1
    assert served(store, "Acme", "owned_by", "2024-02-01") == [("Alice", False)]
    assert served(store, "Acme", "owned_by", "2024-09-01") == [("Alice", True)]
    # and the natural succession at Bob's start goes through
    store.resolve_conflict(listed[0].conflict_id, decision="succession", at="2024-08-01")
    assert served(store, "Acme", "owned_by", "2024-02-01") == [("Alice", False)]
    assert served(store, "Acme", "owned_by", "2024-03-15") == [("Frank", False)]
    assert served(store, "Acme", "owned_by", "2024-05-01") == [("Alice", False)]
    assert served(store, "Acme", "owned_by", "2024-09-01") == [("Bob", False)]
    assert store.conflicts() == []


# -- merge_facts never spans a gap, never merges different claims --------------------------------------------
def test_merging_two_separate_stints_is_refused_and_the_gap_serves_nobody(store):
    # given Dana was CEO 2020-21 and again 2023-24
    store.define_predicate("ceo", cardinality="single")
    first = store.add_fact("Acme", "ceo", "Dana", valid_from="2020", valid_to="2022")
    second = store.add_fact("Acme", "ceo", "Dana", valid_from="2023", valid_to="2025")
    # when the two stints are merged
    with pytest.raises(InvalidInput) as err:
        store.merge_facts([first.fact_id, second.fact_id], statement="Dana is CEO of Acme")
    # then the merge is refused and 2022 still has no CEO
    assert err.value.field == "fact_ids"
    assert served(store, "Acme", "ceo", "2022-06-01") == []
    assert served(store, "Acme", "ceo", "2021-06-01") == [("Dana", False)]


@pytest.mark.parametrize("other", [
    pytest.param(("Globex", "ceo", "Dana"), id="other-subject"),
    pytest.param(("Acme", "cfo", "Dana"), id="other-predicate"),
    pytest.param(("Acme", "ceo", "Erin"), id="other-object"),
])
def test_merging_claims_about_different_things_is_refused(store, other):
    store.define_predicate("ceo", cardinality="multi")
    a = store.add_fact("Acme", "ceo", "Dana", valid_from="2020")
    b = store.add_fact(*other, valid_from="2020")
    with pytest.raises(InvalidInput) as err:
        store.merge_facts([a.fact_id, b.fact_id], statement="Dana is CEO of Acme")
    assert err.value.field == "fact_ids"
    assert [v.known_to for v in store.history(a.fact_id)] == [None]


def test_merging_touching_stints_of_one_claim_spans_them(store):
    a = store.add_fact("Acme", "ceo", "Dana", valid_from="2020", valid_to="2022")
    b = store.add_fact("Acme", "ceo", "Dana", valid_from="2022", valid_to="2024")
    merged = store.merge_facts([a.fact_id, b.fact_id], statement="Dana was CEO of Acme 2020-2023")
    assert served(store, "Acme", "ceo", "2022-06-01") == [("Dana", False)]
    assert merged.valid_from.year == 2020 and merged.valid_to.year == 2024


# -- entity merges follow chains -------------------------------------------------------------------------------
@pytest.fixture
def chain(store, clock):
    """Given Kay, K. and Katherine recorded apart, then Kay merged into K., and K. into Katherine."""
    clock.at("2024-07-01")
    store.add_fact("Kay", "lives_in", "Paris", valid_from="2024-01-01")
    store.add_fact("K.", "works_at", "Acme", valid_from="2024-01-01")
    store.add_fact("Katherine", "speaks_to", "Bob", valid_from="2024-01-01")
    store.merge_entities("K.", "Kay")
    store.merge_entities("Katherine", "K.")


@pytest.mark.parametrize("name", ["Kay", "K.", "Katherine"])
def test_every_name_of_a_merged_chain_reads_all_its_facts(store, chain, name):
    got = sorted((f.predicate, f.object_name) for f in store.facts(name, valid_at="2024-06-01"))
    assert got == [("lives_in", "Paris"), ("speaks_to", "Bob"), ("works_at", "Acme")]


@pytest.mark.parametrize("name", ["Kay", "K.", "Katherine"])
def test_a_write_through_any_name_of_a_chain_meets_the_canonical_conflict_rule(store, chain, name):
    # when another city is written through any name of the chain
    written = store.add_fact(name, "lives_in", "London", valid_from="2024-03-01")
    # then it is kept as a conflict with Paris, which stays served (disputed)
    assert written.state == "conflicted"
    assert served(store, "Katherine", "lives_in", "2024-06-01") == [("Paris", True)]
    assert len(store.conflicts()) == 1
