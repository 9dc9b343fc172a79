"""The bulk write path does the floor's work in as few, as plain statements as the rules allow (issue 9)."""

from __future__ import annotations

from credo.graph import search_partition
from credo.store import Store


def test_new_versions_of_a_partitioned_tenant_get_its_label_in_the_statement_that_creates_them(
        neo4j_db, tenant, clock, queries_run):
    # given a tenant with a search partition
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    store.add_facts([{"subject": "Maria", "predicate": "drinks", "object": "Americano"},
                     {"subject": "Office", "predicate": "located_in", "object": "Berlin"}])
    search_partition.partition(neo4j_db, tenant)
    queries_run.clear()
    # when a batch of new facts is added
    store.add_facts([{"subject": "Team", "predicate": "eats", "object": "soup"},
                     {"subject": "Bob", "predicate": "plays", "object": "chess"}])
    # then every version carries the partition label, and no statement but the create wrote it
    assert neo4j_db.query(search_partition.READ_PARTITION_MEMBERS, tenant=tenant)[0] == {"versions": 4,
                                                                                         "labelled": 4}
    assert queries_run.count("create_fact_versions") == 1
    assert "label_new_versions" not in queries_run


def test_restating_a_batch_of_stored_facts_reinforces_them_all_with_one_flag_statement(
        neo4j_db, tenant, clock, queries_run):
    # given 30 stored facts
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    batch = [{"subject": f"Person {i}", "predicate": "knows", "object": f"Friend {i}"} for i in range(30)]
    first = store.add_facts(batch)
    queries_run.clear()
    # when the same batch is added again (a re-import)
    again = store.add_facts(batch)
    # then each restated fact is reinforced (no new fact), and the flags were written by one statement
    assert [f.fact_id for f in again] == [f.fact_id for f in first]
    assert {f.state for f in store.facts(predicate="knows")} == {"reinforced"}
    assert len(store.facts(predicate="knows")) == 30
    assert queries_run.count("create_state_flags") == 1


def test_a_batch_resolves_its_names_and_reads_what_it_must_respect_in_one_statement_and_makes_new_entities_as_it_writes(
        neo4j_db, tenant, clock, queries_run):
    # given a stored fact of a single-valued and one of a multi-valued predicate
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    store.define_predicate("based_in", cardinality="single")
    store.define_predicate("drinks", cardinality="multi")
    clock.at("2024-01-01")
    based, drinks = store.add_facts([
        {"subject": "Maria", "predicate": "based_in", "object": "Berlin", "valid_from": "2020"},
        {"subject": "Maria", "predicate": "drinks", "object": "Americano", "valid_from": "2020"}])
    queries_run.clear()
    clock.at("2024-02-01")
    # when a batch restates one, contradicts the other and names a new subject and a new object
    again, moved, tea, bob = store.add_facts([
        {"subject": "maria", "predicate": "drinks", "object": "Americano", "valid_from": "2020"},
        {"subject": "Maria", "predicate": "based_in", "object": "Paris", "valid_from": "2021"},
        {"subject": "Maria", "predicate": "drinks", "object": "Tea", "valid_from": "2021"},
        {"subject": "Bob", "predicate": "drinks", "object": "Tea"}])
    # then the rules saw the stored facts: a reinforcement, a conflict, two new facts
    assert again.fact_id == drinks.fact_id and again.state == "reinforced"
    assert moved.state == "conflicted"
    assert tea.object.entity_id == bob.object.entity_id and bob.subject_id not in (based.subject_id, tea.object.entity_id)
    assert [f.object_name for f in store.facts("Bob", "drinks", valid_at="2024-01-01")] == ["Tea"]
    assert store.holders("drinks", "Tea", valid_at="2022-01-01").dated[0].fact_id == tea.fact_id
    # and the names and what the rule respects came from one read, the new entities from the create itself
    assert "resolve_entities" not in queries_run and "read_held_by_subjects" not in queries_run
    assert queries_run.count("read_names_and_held") == 1 and queries_run.count("create_fact_versions") == 1
    entities = neo4j_db.query(_ENTITY_NAMES, tenant=tenant)
    assert sorted(r["name"] for r in entities) == ["Americano", "Berlin", "Bob", "Maria", "Paris", "Tea"]


from credo.cypher import Query  # noqa: E402

_ENTITY_NAMES = Query(name="test_entity_names", text="MATCH (e:Entity {tenant: $tenant}) RETURN e.name AS name",
                      declared=frozenset({"tenant"}))
