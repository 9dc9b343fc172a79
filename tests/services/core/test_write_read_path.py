"""Issue 9 items 3 and 4: a slim conflict read, one audit event per batch, reads in one round trip."""

from __future__ import annotations

import json

import pytest

from credo.schema.errors import ConflictError


class _Q:  # raw queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_EVENTS = _Q("MATCH (e:AuditEvent {tenant: $tenant}) RETURN e.action AS action, e.subject_id AS subject_id, "
             "e.detail AS detail ORDER BY e.at")
_DAMAGE = _Q("MATCH (f:Fact {tenant: $tenant, version_id: $version_id}) SET f[$field] = $value")


def events(store):
    """(action, subject_id, detail) of the tenant's audit events, oldest first."""
    return [(r["action"], r["subject_id"], json.loads(r["detail"]))
            for r in store._ctx.db.query(_EVENTS, tenant=store.tenant)]


def test_a_batch_writes_one_audit_event_listing_every_fact_it_recorded(store, clock):
    # given an established owner
    clock.at("2025-02-01T00:00:00+00:00")
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    before = len(events(store))
    # when a batch adds two new facts and restates the established one
    clock.at("2025-02-02T00:00:00+00:00")
    written = store.add_facts([
        {"subject": "Bob", "predicate": "works_at", "object": "Acme", "valid_from": "2024-01-01"},
        {"subject": "Carol", "predicate": "works_at", "object": "Acme", "valid_from": "2024-01-01"},
        {"subject": "Acme account", "predicate": "owned_by", "object": "Alice", "valid_from": "2024-01-01"},
    ])
    # then the batch appended exactly one event, and it lists the three facts with what happened to each
    after = events(store)[before:]
    assert len(after) == 1, after
    action, _subject, detail = after[0]
    assert action == "add_facts"
    listed = {(f["fact_id"], f["version_id"], f["outcome"]) for f in detail["facts"]}
    assert listed == {(written[0].fact_id, written[0].version_id, "admit"),
                      (written[1].fact_id, written[1].version_id, "admit"),
                      (alice.fact_id, written[2].version_id, "reinforced")}


def test_restating_an_established_value_of_a_multi_valued_predicate_reinforces_it(store, clock):
    # given a multi-valued predicate with two established values
    store.define_predicate("speaks", cardinality="multi")
    clock.at("2025-02-01T00:00:00+00:00")
    french = store.add_fact("Alice", "speaks", "French", valid_from="2020-01-01")
    store.add_fact("Alice", "speaks", "German", valid_from="2020-01-01")
    # when one of them is stated again, inside its interval
    clock.at("2025-02-02T00:00:00+00:00")
    again = store.add_fact("Alice", "speaks", "French", valid_from="2021-01-01")
    # then it reinforces the established fact instead of adding a third value
    assert again.fact_id == french.fact_id and again.state == "reinforced"
    assert sorted(f.object_name for f in store.facts("Alice", "speaks")) == ["French", "German"]


def test_a_different_value_of_a_single_valued_predicate_still_waits_as_conflicted(store, clock):
    # given an established owner, and a batch that states another owner over the same time
    clock.at("2025-02-01T00:00:00+00:00")
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    clock.at("2025-02-02T00:00:00+00:00")
    bob, = store.add_facts([{"subject": "Acme account", "predicate": "owned_by", "object": "Bob",
                             "valid_from": "2024-06-01"}])
    # then the new version is kept, not applied, and the served answer is unchanged
    assert bob.state == "conflicted"
    assert [f.object_name for f in store.facts("Acme account", "owned_by", valid_at="2024-07-01")] == ["Alice"]


def test_a_batch_resolves_its_entities_in_one_query(store, clock, queries_run):
    # given one known entity
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    queries_run.clear()
    # when a batch names it and two new ones
    store.add_facts([{"subject": "Acme account", "predicate": "billed_to", "object": "Acme GmbH"},
                     {"subject": "Bob", "predicate": "works_at", "object": "Alice"}])
    # then one query resolved every name (the batch's first read) and the new ones were made with the versions: no
    # other statement reads or creates entities
    from credo.graph.core.versions import READ_NAMES_AND_HELD
    from credo.graph.facts.entities import RESOLVE_ENTITIES

    assert queries_run.count(READ_NAMES_AND_HELD.name) == 1 and RESOLVE_ENTITIES.name not in queries_run, queries_run
    acme = store.facts("Acme account", "billed_to")
    assert [f.fact_id for f in store.holders("billed_to", "Acme GmbH")] == [acme[0].fact_id]
    alice = store.facts("Acme account", "owned_by")[0].object.entity_id
    assert [f.object.entity_id for f in store.facts("Bob")] == [alice]


def test_facts_of_a_named_subject_are_read_in_one_round_trip(store, clock, queries_run):
    # given a fact without premises
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    queries_run.clear()
    # when its subject's facts are read (and a name nobody knows)
    found = store.facts("Acme account", "owned_by", valid_at="2024-06-01")
    missing = store.facts("Nobody", "owned_by", valid_at="2024-06-01")
    # then each read was one query, with the same answer as before
    assert [f.object_name for f in found] == ["Alice"] and list(missing) == []
    assert len(queries_run) == 2, queries_run


def test_holders_of_a_named_object_are_read_in_one_round_trip(store, clock, queries_run):
    # given a fact without premises
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    queries_run.clear()
    # when the holders of its object are read (and of a name nobody knows)
    found = store.holders("owned_by", "Alice", valid_at="2024-06-01")
    missing = store.holders("owned_by", "Nobody", valid_at="2024-06-01")
    # then each read was one query
    assert [f.subject for f in found] == ["Acme account"] and list(missing) == []
    assert len(queries_run) == 2, queries_run


def test_a_subject_and_an_object_name_are_read_in_one_round_trip(store, clock, queries_run):
    # given two owners of different things
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_fact("Beta account", "owned_by", "Bob", valid_from="2024-01-01")
    queries_run.clear()
    # when a subject's facts are read with an entity object
    hit = store.facts("Acme account", "owned_by", "Alice", valid_at="2024-06-01")
    miss = store.facts("Acme account", "owned_by", "Bob", valid_at="2024-06-01")
    # then only the matching one comes back, one query each
    assert [f.object_name for f in hit] == ["Alice"] and list(miss) == []
    assert len(queries_run) == 2, queries_run


def test_a_read_runs_as_auto_commit_queries_without_an_explicit_transaction(store, clock, monkeypatch):
    # given a fact, and the driver's explicit transactions counted
    import neo4j

    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    began: list[str] = []
    original = neo4j.Session.begin_transaction

    def counted(self, *args, **kwargs):
        began.append("tx")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(neo4j.Session, "begin_transaction", counted)
    # when facts, holders and relations are read
    assert [f.object_name for f in store.facts("Acme account", "owned_by", valid_at="2024-06-01")] == ["Alice"]
    assert [f.subject for f in store.holders("owned_by", "Alice", valid_at="2024-06-01")] == ["Acme account"]
    assert len(store.relations("Alice", valid_at="2024-06-01")) == 1
    # then no explicit transaction was opened (a transaction buys a read nothing: BEGIN and COMMIT round trips)
    assert began == []
    # while a write still runs in one
    store.add_fact("Beta account", "owned_by", "Bob", valid_from="2024-01-01")
    assert began == ["tx"]


def test_restating_a_damaged_stored_version_is_refused_and_writes_nothing(store, clock):
    # given an established fact whose stored row was damaged (its kind is no longer a kind)
    clock.at("2025-02-01T00:00:00+00:00")
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    store._ctx.db.query(_DAMAGE, write=True, tenant=store.tenant, version_id=alice.version_id, field="kind",
                        value="bogus")
    before = len(events(store))
    # when a batch restates it
    clock.at("2025-02-02T00:00:00+00:00")
    with pytest.raises(ConflictError) as refused:
        store.add_facts([{"subject": "Bob", "predicate": "works_at", "object": "Acme"},
                         {"subject": "Acme account", "predicate": "owned_by", "object": "Alice",
                          "valid_from": "2024-01-01"}])
    # then the write is refused naming the damaged version, and nothing of the batch was written
    assert alice.version_id in str(refused.value)
    assert len(events(store)) == before and list(store.facts("Bob")) == []


def test_a_fact_resting_on_nothing_is_served_beside_one_that_rests_on_a_premise(store):
    premise = store.add_fact("API v1 clients", "read", "column X", object_is_entity=False)
    store.add_fact("orders-db", "owner", "Dana", valid_from="2024-01-01")
    store.add_fact("orders-db", "keeps", "column X", object_is_entity=False, valid_from="2024-01-01",
                   depends_on=[premise.fact_id])
    found = store.facts("orders-db", valid_at="2024-06-01")
    assert sorted(f.value for f in found) == ["Dana", "column X"]
    assert sorted(f.value for f in store.holders("owner", "Dana", valid_at="2024-06-01")) == ["Dana"]


def test_relations_of_an_entity_without_premises_are_read_in_one_round_trip(store, clock, queries_run):
    # given an entity with an outgoing and an incoming relation, neither resting on premises
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_fact("Alice", "works_at", "Acme", valid_from="2024-01-01")
    queries_run.clear()
    # when its relations are read
    found = store.relations("Alice", valid_at="2024-06-01")
    # then both come back from one query (no support check for versions that rest on nothing)
    assert sorted((r.direction, r.other) for r in found) == [("in", "Acme account"), ("out", "Acme")]
    assert len(queries_run) == 1, queries_run


def test_a_relation_resting_on_a_premise_that_ended_is_not_served(store, clock):
    # given a relation resting on a premise that ends in mid-2024
    premise = store.add_fact("Acme", "contracted_with", "Alice", valid_from="2024-01-01", valid_to="2024-06-01")
    store.add_facts([{"subject": "Alice", "predicate": "works_at", "object": "Acme", "valid_from": "2024-01-01",
                      "depends_on": [premise.fact_id]}])
    # when Alice's relations are read while the premise holds and after it ended
    during = store.relations("Alice", valid_at="2024-03-01")
    after = store.relations("Alice", valid_at="2024-09-01")
    # then the dependent relation is served only while its premise holds
    assert ("out", "works_at") in {(r.direction, r.predicate) for r in during}
    assert ("out", "works_at") not in {(r.direction, r.predicate) for r in after}
