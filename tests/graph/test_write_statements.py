"""The bulk write path does the floor's work in as few, as plain statements as the rules allow (issue 9)."""

from __future__ import annotations

from credo.graph import db as graph_db
from credo.graph import search_partition
from credo.store import Store


def _statements_of(monkeypatch) -> list[str]:
    """The names of the queries every Tx runs from now on (the real queries run; their names are noted)."""
    ran: list[str] = []
    real = graph_db.Tx.rows

    def noting(self, query, **params):
        ran.append(query.name)
        return real(self, query, **params)

    monkeypatch.setattr(graph_db.Tx, "rows", noting)
    return ran


def test_new_versions_of_a_partitioned_tenant_get_its_label_in_the_statement_that_creates_them(
        neo4j_db, tenant, clock, monkeypatch):
    # given a tenant with a search partition
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    store.add_facts([{"subject": "Maria", "predicate": "drinks", "object": "Americano"},
                     {"subject": "Office", "predicate": "located_in", "object": "Berlin"}])
    search_partition.partition(neo4j_db, tenant)
    ran = _statements_of(monkeypatch)
    # when a batch of new facts is added
    store.add_facts([{"subject": "Team", "predicate": "eats", "object": "soup"},
                     {"subject": "Bob", "predicate": "plays", "object": "chess"}])
    # then every version carries the partition label, and no statement but the create wrote it
    assert neo4j_db.query(search_partition.READ_PARTITION_MEMBERS, tenant=tenant)[0] == {"versions": 4,
                                                                                         "labelled": 4}
    assert ran.count("create_fact_versions") == 1
    assert "label_new_versions" not in ran


def test_restating_a_batch_of_stored_facts_reinforces_them_all_with_one_flag_statement(
        neo4j_db, tenant, clock, monkeypatch):
    # given 30 stored facts
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    batch = [{"subject": f"Person {i}", "predicate": "knows", "object": f"Friend {i}"} for i in range(30)]
    first = store.add_facts(batch)
    ran = _statements_of(monkeypatch)
    # when the same batch is added again (a re-import)
    again = store.add_facts(batch)
    # then each restated fact is reinforced (no new fact), and the flags were written by one statement
    assert [f.fact_id for f in again] == [f.fact_id for f in first]
    assert {f.state for f in store.facts(predicate="knows")} == {"reinforced"}
    assert len(store.facts(predicate="knows")) == 30
    assert ran.count("create_state_flags") == 1
