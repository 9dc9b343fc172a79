"""A tenant's search partition is built off the write path: a write that takes the tenant past the threshold is
answered before the build, search stays exact meanwhile, an import that will cross opens the partition before its
first write, and no version a write creates while the partition opens is left out of it."""

from __future__ import annotations

import threading

from credo.graph import ledger, search_partition
from credo.services.embeddings import default_embedder
from credo.store import Store


def _ready_index(db, tenant: str) -> str | None:
    return db.read(lambda tx: search_partition.index_for(tx, tenant))


def _members(db, tenant: str) -> dict:
    return db.query(search_partition.READ_PARTITION_MEMBERS, tenant=tenant)[0]


def test_a_write_that_takes_a_tenant_past_the_threshold_is_answered_before_its_partition_is_built(
        neo4j_db, tenant, clock, monkeypatch):
    # given a threshold of 3 versions, a tenant with 2 facts, and the partition build held back (at its wait for the
    # indexes) until released
    monkeypatch.setattr(search_partition, "THRESHOLD", 3)
    gate, reached = threading.Event(), threading.Event()
    real_schema = neo4j_db.run_schema

    def held_schema(statement: str) -> None:
        if statement.startswith("CALL db.awaitIndex"):
            reached.set()
            gate.wait(60)
        real_schema(statement)

    monkeypatch.setattr(neo4j_db, "run_schema", held_schema)
    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)
    store.add_facts([{"subject": "Maria", "predicate": "drinks", "object": "Americano",
                      "statement": "Maria takes an Americano, no sugar"},
                     {"subject": "Office", "predicate": "located_in", "object": "Berlin",
                      "statement": "The office is located in Berlin"}])
    answered = threading.Event()

    def write() -> None:
        store.add_fact("Team", "eats", "soup", statement="The team eats soup at noon")
        answered.set()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        # when that write crosses the threshold, then it is answered while the partition is not ready yet
        assert answered.wait(15), "the write waited for its tenant's partition build"
        assert reached.wait(15), "no partition build started"
        assert _ready_index(neo4j_db, tenant) is None
        # and search stays exact meanwhile: every version is found by meaning (the exact scan of the tenant's vectors)
        coffee = store.search("a hot drink with caffeine", kinds=["fact"], limit=1).hits[0]
        assert coffee.text == "Maria takes an Americano, no sugar" and "vector" in coffee.paths
        lunch = store.search("what do we have for lunch", kinds=["fact"], limit=1).hits[0]
        assert lunch.text == "The team eats soup at noon" and "vector" in lunch.paths
    finally:
        gate.set()
        writer.join(60)
    # when the build is let through, then the partition is ready with every version in it, and search reads it
    search_partition.settle(neo4j_db)
    assert _ready_index(neo4j_db, tenant) == search_partition.names_of(neo4j_db, tenant)[1]
    assert _members(neo4j_db, tenant) == {"versions": 3, "labelled": 3}
    lunch = store.search("what do we have for lunch", kinds=["fact"], limit=1).hits[0]
    assert lunch.text == "The team eats soup at noon" and "vector" in lunch.paths


def test_a_version_a_write_creates_while_the_partition_opens_joins_the_partition(neo4j_db, tenant, clock,
                                                                                  monkeypatch):
    # given a tenant with one fact, and a second write that has created its version but not committed yet
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    store.add_fact("Maria", "drinks", "Americano")
    created, release = threading.Event(), threading.Event()
    real_finish = ledger.finish

    def held_finish(tx, tenant_id, known):
        if tenant_id == tenant and not created.is_set():
            created.set()
            release.wait(60)
        return real_finish(tx, tenant_id, known)

    monkeypatch.setattr(ledger, "finish", held_finish)
    writer = threading.Thread(target=store.add_fact, args=("Office", "located_in", "Berlin"))
    writer.start()
    assert created.wait(30)
    # when the tenant's partition is opened meanwhile, and the write commits after that began
    builder = threading.Thread(target=search_partition.partition, args=(neo4j_db, tenant))
    builder.start()
    builder.join(5)  # a partition that does not wait for the open write is labelled and indexed by now
    release.set()
    writer.join(60)
    builder.join(120)
    # then both versions carry the partition's label: the labelling did not miss the write in flight (opening the
    # partition MERGEs its node under the uniqueness constraint, whose entry lock waits for the write that read it)
    assert not writer.is_alive() and not builder.is_alive()
    assert _members(neo4j_db, tenant) == {"versions": 2, "labelled": 2}


def test_an_import_that_will_take_a_fresh_tenant_past_the_threshold_opens_its_partition_before_writing(
        neo4j_db, tenant, clock, monkeypatch):
    # given a threshold of 5 versions and a fresh tenant; builds handed to the background are only recorded
    monkeypatch.setattr(search_partition, "THRESHOLD", 5)
    later: list[str] = []
    monkeypatch.setattr(search_partition, "build_later", lambda db, tenant_id: later.append(tenant_id))
    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)
    rows = [{"subject": f"Person {i}", "predicate": "owns", "object": f"Bicycle {i}"} for i in range(11)]
    rows.append({"subject": "Maria", "predicate": "drinks", "object": "Americano",
                 "statement": "Maria takes an Americano, no sugar"})
    # when 12 rows are imported in batches of 4
    report = store.import_facts(rows, batch_size=4)
    # then, as the import returns, the tenant's own indexes are ready and every version joined them as it was
    # written (nothing was left for a background build), and search reads them
    assert report.committed == [0, 1, 2]
    assert later == []
    assert _ready_index(neo4j_db, tenant) == search_partition.names_of(neo4j_db, tenant)[1]
    assert _members(neo4j_db, tenant) == {"versions": 12, "labelled": 12}
    coffee = store.search("a hot drink with caffeine", kinds=["fact"], limit=1).hits[0]
    assert coffee.text == "Maria takes an Americano, no sugar" and "vector" in coffee.paths


def test_a_small_import_leaves_a_tenant_without_a_partition(neo4j_db, tenant, clock, monkeypatch):
    # given a threshold of 50 versions and a fresh tenant
    monkeypatch.setattr(search_partition, "THRESHOLD", 50)
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    # when 12 rows are imported (from a generator: the import cannot count them beforehand)
    report = store.import_facts(({"subject": f"P {i}", "predicate": "drinks", "object": f"D {i}"} for i in range(12)),
                                batch_size=4)
    # then no partition was opened for it
    assert report.committed == [0, 1, 2]
    search_partition.settle(neo4j_db)
    assert neo4j_db.read(lambda tx: tx.one(search_partition.READ_SEARCH_PARTITION, tenant=tenant,
                                           kind="index"))["label"] is None


def test_a_batch_that_alone_takes_a_fresh_tenant_past_the_threshold_opens_its_partition_before_writing(
        neo4j_db, tenant, clock, monkeypatch):
    # given a threshold of 5 versions and a fresh tenant; builds handed to the background are only recorded
    monkeypatch.setattr(search_partition, "THRESHOLD", 5)
    later: list[str] = []
    monkeypatch.setattr(search_partition, "build_later", lambda db, tenant_id: later.append(tenant_id))
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    # when one add_facts batch of 8 rows is written
    store.add_facts([{"subject": f"Person {i}", "predicate": "owns", "object": f"Bicycle {i}"} for i in range(8)])
    # then, as it returns, the tenant's partition is ready and every version entered it as it was written (nothing
    # was left for a background build to label)
    assert later == []
    assert _ready_index(neo4j_db, tenant) == search_partition.names_of(neo4j_db, tenant)[1]
    assert _members(neo4j_db, tenant) == {"versions": 8, "labelled": 8}
