"""The bulk write path does the floor's work in as few, as plain statements as the rules allow (issue 9)."""

from __future__ import annotations

from credo.cypher import Query, expand
from credo.store import Store

_KEYS = Query("test_search_keys", "MATCH (f:Fact) WHERE f.fact_id = $fact_id RETURN f.known_from_key AS known_from, "
              "f.known_to_key AS known_to, f.valid_from_key AS valid_from, f.valid_to_key AS valid_to, "
              "f.sensitivity_rank AS rank, f.known_from.epochMillis AS believed_ms, f.known_to.epochMillis AS "
              "closed_ms ORDER BY f.known_from", frozenset({"fact_id"}))
_TWIN = Query("test_search_keys_twin", expand(
    "MATCH (f:Fact) WHERE f.fact_id = $fact_id RETURN @search_keys(f, null) AS twin, f {.known_from_key, "
    ".known_to_key, .valid_from_key, .valid_to_key, .sensitivity_rank} AS stored"), frozenset({"fact_id"}))
OPEN_END = 9007199254740991  # schema/search.py search_keys, documented in the README


def test_new_versions_get_their_search_index_keys_in_the_statement_that_creates_them_and_a_close_updates_them(
        neo4j_db, tenant, clock, queries_run):
    # given a store
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    queries_run.clear()
    clock.at("2024-03-01")
    # when a batch of facts is added, one secret, one with an ended valid time
    cafe, old = store.add_facts([
        {"subject": "Maria", "predicate": "drinks", "object": "Americano", "sensitivity": "secret"},
        {"subject": "Office", "predicate": "located_in", "object": "Berlin", "valid_from": "2020-01-01",
         "valid_to": "2021-01-01"}])
    # then each version holds the keys the vector index filters on, written by the create alone
    [keys] = neo4j_db.query(_KEYS, fact_id=cafe.fact_id)
    assert keys["known_from"] == keys["believed_ms"] and keys["known_to"] == OPEN_END and keys["rank"] == 3
    assert keys["valid_from"] == -OPEN_END and keys["valid_to"] == OPEN_END
    [keys] = neo4j_db.query(_KEYS, fact_id=old.fact_id)
    assert (keys["valid_from"], keys["valid_to"], keys["rank"]) == (1577836800000, 1609459200000, 1)
    assert queries_run.count("create_fact_versions") == 1 and "set_search_keys" not in queries_run
    # and the Cypher twin of the keys (the fragment bulk loaders use) computes the same for each
    for fact in (cafe, old):
        [row] = neo4j_db.query(_TWIN, fact_id=fact.fact_id)
        assert row["twin"] == row["stored"]
    # and when a version stops being believed, its known_to key closes with it
    clock.at("2024-04-01")
    store.retract_fact(cafe.fact_id, reason="a test")
    [keys] = neo4j_db.query(_KEYS, fact_id=cafe.fact_id)
    assert keys["known_to"] == keys["closed_ms"] < OPEN_END


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


_ENTITY_NAMES = Query(name="test_entity_names", text="MATCH (e:Entity {tenant: $tenant}) RETURN e.name AS name",
                      declared=frozenset({"tenant"}))


_EPOCH_MILLIS = Query("test_epoch_millis", "UNWIND $instants AS t RETURN datetime(t).epochMillis AS ms",
                      frozenset({"instants"}))


def test_a_versions_search_keys_are_the_epoch_milliseconds_neo4j_computes_for_its_instants(neo4j_db):
    # the create statement takes keys computed in Python; a close and migration 0018 take Cypher's epochMillis
    from datetime import datetime, timezone

    from credo.schema.search import OPEN_END_KEY, epoch_key

    instants = [datetime(2024, 3, 1, 12, 0, 0, 999_999, tzinfo=timezone.utc),
                datetime(1969, 12, 31, 23, 59, 59, 999_500, tzinfo=timezone.utc),
                datetime(1066, 10, 14, 9, 30, 0, 123_456, tzinfo=timezone.utc),
                datetime(1970, 1, 1, tzinfo=timezone.utc)]
    cypher = [row["ms"] for row in neo4j_db.query(_EPOCH_MILLIS, instants=[t.isoformat() for t in instants])]
    assert [epoch_key(t, OPEN_END_KEY) for t in instants] == cypher
    assert epoch_key(None, OPEN_END_KEY) == OPEN_END
