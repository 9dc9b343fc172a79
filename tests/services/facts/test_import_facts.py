"""The pipelined bulk import (issue 9 item 5): atomic batches, the next one embedded while one is written; the same
facts as add_facts; a bad row named by its row and field stops it; progress after each committed batch."""

from __future__ import annotations

from credo.cypher import Query
from credo.schema.imports import ImportBatch
from credo.store import Store
from tests.services.forget.test_forget import HashEmbedder

_WRITTEN = Query("raw", "MATCH (f:Fact) WHERE f.tenant = $tenant RETURN f.subject_name AS subject, "
                 "f.predicate AS predicate, f.object_name AS object, f.statement AS statement, f.state AS state, "
                 "toString(f.valid_from) AS valid_from, toString(f.valid_to) AS valid_to, f.embedding AS embedding, "
                 "f.bounded_by IS NOT NULL AS bounded, f.known_to IS NULL AS current", frozenset({"tenant"}))


def _rows() -> list[dict]:
    people = [{"subject": f"Person {i}", "predicate": "lives_in", "object": f"City {i % 3}",
               "valid_from": f"20{10 + i}-01-01"} for i in range(6)]
    # conflicts on single-valued predicates, and an exact restatement of a row of an earlier batch
    return people + [
        {"subject": "Maria", "predicate": "works_at", "object": "Acme", "valid_from": "2020-01-01"},
        {"subject": "Maria", "predicate": "works_at", "object": "Globex", "valid_from": "2022-01-01"},
        {"subject": "Maria", "predicate": "born_in", "object": "Lyon", "valid_from": "1990-05-01"},
        {"subject": "Maria", "predicate": "born_in", "object": "Nice", "valid_from": "1990-05-01"},
        {"subject": "Person 1", "predicate": "lives_in", "object": "City 1", "valid_from": "2011-01-01"},
        {"subject": "Maria", "predicate": "drinks", "object": "Americano", "statement": "Maria takes an Americano"},
    ]


def _written(store: Store) -> list[tuple]:
    rows = store._db.query(_WRITTEN, tenant=store.tenant)
    return sorted(tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in r.items()) for r in rows)


def _store(neo4j_db, tenant: str, clock) -> Store:
    store = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False)
    store.define_predicate("born_in", cardinality="single")
    store.define_predicate("works_at", cardinality="single")
    return store


def test_imported_facts_equal_what_add_facts_of_the_same_rows_writes(neo4j_db, tenant, clock):
    # given the same rows, added in one add_facts call in one tenant
    plain = _store(neo4j_db, f"{tenant}_plain", clock)
    plain.add_facts(_rows())
    # when they are imported in batches of 4 (three batches) in another
    imported = _store(neo4j_db, tenant, clock)
    report = imported.import_facts(_rows(), batch_size=4)
    # then every batch committed, and the versions written (states, bounds, statements, vectors) are the same
    assert report.complete and report.committed == [0, 1, 2] and report.rows == len(_rows())
    assert [(b.first_row, b.rows) for b in report.batches] == [(0, 4), (4, 4), (8, 4)]
    assert _written(imported) == _written(plain)
    written = {(r["subject"], r["object"]): r for r in neo4j_db.query(_WRITTEN, tenant=tenant) if r["current"]}
    assert written[("Maria", "Americano")]["embedding"] == HashEmbedder().embed(["Maria takes an Americano"])[0]
    assert written[("Maria", "Globex")]["state"] == "conflicted"
    assert written[("Maria", "Nice")]["state"] == "conflicted"


def test_a_bad_row_names_its_row_and_field_and_leaves_the_later_batches_unwritten(neo4j_db, tenant, clock):
    # given twelve rows whose row 5 has a valid_from that is no time
    rows = _rows()
    rows[5] = {**rows[5], "valid_from": "the day after"}
    store = _store(neo4j_db, tenant, clock)
    # when they are imported in batches of 4
    report = store.import_facts(rows, batch_size=4)
    # then batch 0 is committed, batch 1 is refused naming row 5 and its field, and nothing after batch 0 is written
    assert not report.complete and report.committed == [0]
    assert report.error.batch == 1 and report.error.row == 5 and report.error.field == "valid_from", report.error
    assert report.error.rule
    assert [(b.batch, b.committed) for b in report.batches] == [(0, True), (1, False)]
    assert report.rows == 4 and len(_written(store)) == 4
    assert {s for (_k, s), *_ in _written(store)} == {"Person 0", "Person 1", "Person 2", "Person 3"}


def test_a_batch_refused_by_a_rule_stops_the_import_and_names_the_batch(neo4j_db, tenant, clock):
    # given rows whose second batch depends on a premise that does not exist
    rows = _rows()[:8]
    rows[6] = {**rows[6], "depends_on": ["f_no_such_premise"]}
    store = _store(neo4j_db, tenant, clock)
    # when they are imported in batches of 4
    report = store.import_facts(rows, batch_size=4)
    # then the first batch is committed, the second is named as the one that failed, and it wrote nothing
    assert report.committed == [0] and report.error.batch == 1 and report.error.row is None, report.error
    assert len(_written(store)) == 4


def test_progress_is_reported_after_each_committed_batch(neo4j_db, tenant, clock):
    # given a store and a progress callback that counts what is written when it is told
    store = _store(neo4j_db, tenant, clock)
    told: list[tuple[ImportBatch, int]] = []
    # when twelve rows are imported in batches of 5
    report = store.import_facts(iter(_rows()), batch_size=5,
                                progress=lambda b: told.append((b, len(_written(store)))))
    # then it was told of each batch once, in order, after that batch's commit (the restatement reinforced a version)
    assert [(b.batch, b.first_row, b.rows, b.committed) for b, _n in told] == [(0, 0, 5, True), (1, 5, 5, True),
                                                                             (2, 10, 2, True)]
    assert [n for _b, n in told] == [5, 10, 11]
    assert report.batches == [b for b, _n in told]
