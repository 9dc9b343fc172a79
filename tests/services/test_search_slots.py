"""A growing tenant takes a search partition slot made ahead of need: its growth runs no DDL (an index created or
dropped empties Neo4j's whole plan cache, so every tenant's next queries were planned again), slots taken run low are
made again in the background, none is ever given to two tenants, and a released slot is taken by the next tenant."""

from __future__ import annotations

import threading

import pytest

from credo.cypher import Query
from credo.graph import search_partition
from credo.schema.errors import NotFound, RaceLost
from credo.services.embeddings import default_embedder
from credo.store import Store


def _ddl_during(neo4j_db, monkeypatch) -> list[str]:
    """Every schema statement run from now on that creates or drops an index."""
    ran: list[str] = []
    real = neo4j_db.run_schema

    def noting(statement: str) -> None:
        if statement.startswith(("CREATE", "DROP")):
            ran.append(statement)
        real(statement)

    monkeypatch.setattr(neo4j_db, "run_schema", noting)
    return ran


def _free(neo4j_db) -> int:
    return neo4j_db.query(search_partition.READ_SEARCH_SLOTS)[0]["free"]


def _fill(store: Store, first: int, n: int) -> None:
    store.add_facts([{"subject": f"Person {i}", "predicate": "owns", "object": f"Bicycle {i}"}
                     for i in range(first, first + n)])


def test_a_tenant_that_grows_past_the_threshold_takes_a_slot_without_creating_an_index(neo4j_db, tenant, clock,
                                                                                       monkeypatch):
    # given free slots, a threshold of 3 versions and a tenant about to cross it
    search_partition.settle(neo4j_db)
    if _free(neo4j_db) < search_partition.SLOT_LOW + 1:
        search_partition.make_slots(neo4j_db, search_partition.SLOT_BATCH)
    monkeypatch.setattr(search_partition, "THRESHOLD", 3)
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    _fill(store, 0, 2)
    ddl = _ddl_during(neo4j_db, monkeypatch)
    # when a write takes it past the threshold and its partition is built
    _fill(store, 2, 2)
    search_partition.settle(neo4j_db)
    # then its partition is ready on a slot's label and indexes, and no index was created or dropped for it
    label, index, text = search_partition.names_of(neo4j_db, tenant)
    assert label.startswith("SearchS_") and index.startswith("fact_embedding_s_") and text.startswith("fact_text_s_")
    assert neo4j_db.read(lambda tx: search_partition.indexes_for(tx, tenant)) == (index, text)
    assert neo4j_db.query(search_partition.READ_PARTITION_MEMBERS, tenant=tenant)[0] == {"versions": 4, "labelled": 4}
    assert ddl == []


def test_slots_run_low_are_made_again_in_the_background_and_a_tenant_finding_none_free_makes_its_own(
        neo4j_db, clock, monkeypatch):
    taken: list[str] = []

    def claim() -> str:
        taken.append(f"t_slot_{len(taken)}_{clock().timestamp()}")
        return search_partition.partition(neo4j_db, taken[-1])

    # given at least SLOT_LOW free slots and no refill under way
    search_partition.settle(neo4j_db)
    if _free(neo4j_db) < search_partition.SLOT_LOW:
        search_partition.make_slots(neo4j_db, search_partition.SLOT_BATCH)
    # when claims leave fewer than SLOT_LOW free
    while _free(neo4j_db) >= search_partition.SLOT_LOW:
        claim()
    low = _free(neo4j_db)
    search_partition.settle(neo4j_db)
    # then SLOT_BATCH more were made in the background
    assert _free(neo4j_db) == low + search_partition.SLOT_BATCH
    # and when every slot is taken while no refill runs (the background did not keep up)
    refills: list[object] = []
    monkeypatch.setattr(search_partition, "slots_later", lambda db: refills.append(db))
    while _free(neo4j_db) > 0:
        claim()
    assert refills  # the claims that ran low asked for a refill
    refills.clear()
    # a tenant opening its partition makes slots itself, takes one, and asks for none in the background
    late = f"t_slot_late_{clock().timestamp()}"
    index = search_partition.partition(neo4j_db, late)
    assert index == search_partition.names_of(neo4j_db, late)[1]
    assert _free(neo4j_db) == search_partition.SLOT_BATCH - 1
    assert refills == []
    for t in taken + [late]:
        search_partition.release(neo4j_db, t)


def test_two_tenants_opening_partitions_at_once_never_share_a_slot(neo4j_db, clock):
    # given free slots
    search_partition.settle(neo4j_db)
    if _free(neo4j_db) < 4:
        search_partition.make_slots(neo4j_db, search_partition.SLOT_BATCH)
    tenants = [f"t_race_{i}_{clock().timestamp()}" for i in range(4)]
    barrier = threading.Barrier(len(tenants))
    errors: list[BaseException] = []

    def open_one(t: str) -> None:
        try:
            barrier.wait(10)
            search_partition.partition(neo4j_db, t)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    # when four tenants open their partitions at the same moment
    threads = [threading.Thread(target=open_one, args=(t,)) for t in tenants]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    # then each has a slot of its own
    assert errors == []
    labels = [search_partition.names_of(neo4j_db, t)[0] for t in tenants]
    assert len(set(labels)) == len(tenants), labels
    for t in tenants:
        search_partition.release(neo4j_db, t)


def test_a_released_slot_is_empty_and_is_taken_by_the_next_tenant(neo4j_db, tenant, clock, monkeypatch):
    # given a tenant with its own partition holding its versions
    monkeypatch.setattr(search_partition, "THRESHOLD", 3)
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    _fill(store, 0, 4)
    search_partition.settle(neo4j_db)
    label, index, text = search_partition.names_of(neo4j_db, tenant)
    free = _free(neo4j_db)
    # when its partition is released
    search_partition.release(neo4j_db, tenant)
    # then no node carries the slot's label, the slot is free, and the next tenant that opens a partition takes it
    carrying = Query("test_carrying", f"MATCH (n:{label}) RETURN count(n) AS n", frozenset())
    assert neo4j_db.query(carrying)[0]["n"] == 0
    assert _free(neo4j_db) == free + 1
    assert search_partition.names_of(neo4j_db, tenant) is None
    nxt = f"{tenant}_next"
    search_partition.partition(neo4j_db, nxt)
    assert search_partition.names_of(neo4j_db, nxt)[:2] == (label, index)
    search_partition.release(neo4j_db, nxt)


def test_a_partition_opened_before_slots_keeps_its_label_and_indexes(neo4j_db, tenant, clock):
    # given a tenant partitioned as before migration 0013: a label and two indexes named by its id's digest
    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)
    store.add_fact("Maria", "drinks", "Americano", statement="Maria takes an Americano, no sugar")
    label, index = search_partition.names(tenant)
    text = search_partition.text_index(tenant)
    neo4j_db.run_schema(f"CREATE VECTOR INDEX {index} IF NOT EXISTS FOR (n:{label}) ON n.embedding "
                        "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}")
    neo4j_db.run_schema(f"CREATE FULLTEXT INDEX {text} IF NOT EXISTS FOR (n:{label}) ON EACH [n.statement, n.quote]")
    opened = Query("test_open_legacy", "MERGE (p:SearchPartition {tenant: $tenant}) SET p.label = $label, "
                   "p.index = $index, p.ready = true, p.text_index = $text RETURN p.label AS label",
                   frozenset({"tenant", "label", "index", "text"}))
    neo4j_db.write(lambda tx: tx.one(opened, tenant=tenant, label=label, index=index, text=text))
    neo4j_db.run_schema_query(search_partition.LABEL_SEARCH_PARTITION, tenant=tenant, label=label)
    neo4j_db.run_schema_query(search_partition.UNLABEL_GLOBAL_TEXT, tenant=tenant)
    free = _free(neo4j_db)
    try:
        # when the tenant writes again and its partition is opened again (as maintain() or a bulk write would)
        store.add_fact("Team", "eats", "soup", statement="The team eats soup at noon")
        assert search_partition.partition(neo4j_db, tenant) == index
        # then it took no slot, its versions carry its own label, and search reads its own indexes
        assert _free(neo4j_db) == free
        assert search_partition.names_of(neo4j_db, tenant) == (label, index, text)
        assert neo4j_db.query(search_partition.READ_PARTITION_MEMBERS, tenant=tenant)[0] == {"versions": 2,
                                                                                               "labelled": 2}
        lunch = store.search("what do we have for lunch", kinds=["fact"], limit=1).hits[0]
        assert lunch.text == "The team eats soup at noon" and "vector" in lunch.paths
    finally:
        # and releasing it drops the two indexes it alone used
        search_partition.release(neo4j_db, tenant)
    names = Query("test_index_names", "SHOW INDEXES YIELD name WHERE name IN $names RETURN name",
                  frozenset({"names"}))
    assert neo4j_db.query(names, names=[index, text]) == []


def _carrying(neo4j_db, label: str) -> int:
    query = Query("test_carrying_label", f"MATCH (n:{label}) RETURN count(n) AS n", frozenset())
    return neo4j_db.query(query)[0]["n"]


def _global_text(neo4j_db, tenant: str) -> int:
    query = Query("test_global_text", "MATCH (f:Fact:FactText) WHERE f.tenant = $tenant RETURN count(f) AS n",
                  frozenset({"tenant"}))
    return neo4j_db.query(query, tenant=tenant)[0]["n"]


def test_a_partition_opened_before_slots_whose_build_never_finished_is_built_on_a_slot(neo4j_db, tenant, clock):
    # given a tenant whose partition was opened the old way and never built (a node naming a digest label, not ready,
    # no index: the old build created the node first and could fail before its indexes)
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    _fill(store, 0, 3)
    label, index = search_partition.names(tenant)
    opened = Query("test_open_unbuilt", "CREATE (p:SearchPartition {tenant: $tenant, label: $label, index: $index, "
                   "ready: false}) RETURN p.label AS label", frozenset({"tenant", "label", "index"}))
    neo4j_db.write(lambda tx: tx.one(opened, tenant=tenant, label=label, index=index))
    # when its partition is opened again (as maintain() would)
    built = search_partition.partition(neo4j_db, tenant)
    # then it is ready on a slot, with every version in it
    slot_label, slot_index, text = search_partition.names_of(neo4j_db, tenant)
    assert built == slot_index and slot_label.startswith("SearchS_") and text.startswith("fact_text_s_")
    assert neo4j_db.query(search_partition.READ_PARTITION_MEMBERS, tenant=tenant)[0] == {"versions": 3, "labelled": 3}
    search_partition.release(neo4j_db, tenant)


def test_releasing_a_partition_puts_the_tenants_versions_back_in_the_global_index_even_one_written_meanwhile(
        neo4j_db, tenant, clock, monkeypatch):
    # given a tenant with its own partition, and a write of the tenant that lands while the partition is released
    monkeypatch.setattr(search_partition, "THRESHOLD", 3)
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    _fill(store, 0, 4)
    search_partition.settle(neo4j_db)
    label = search_partition.names_of(neo4j_db, tenant)[0]
    real = neo4j_db.run_schema_query

    def with_a_write(query, **params):
        if query is search_partition.UNLABEL_SEARCH_PARTITION:
            store.add_fact("Zed", "owns", "Kayak", statement="Zed owns a quinquagenarian kayak")
        return real(query, **params)

    monkeypatch.setattr(neo4j_db, "run_schema_query", with_a_write)
    # when the partition is released
    search_partition.release(neo4j_db, tenant)
    # then no node carries its label, every version (the one written meanwhile too) is in the global full-text index,
    # and lexical search finds them there
    assert _carrying(neo4j_db, label) == 0
    assert _global_text(neo4j_db, tenant) == 5
    from credo.services import search as search_service
    hits = search_service.search(store._ctx, query="quinquagenarian", kinds=["fact"], paths=frozenset({"lexical"}))
    assert [h.text for h in hits.hits] == ["Zed owns a quinquagenarian kayak"]


def test_a_partition_released_while_it_is_built_is_not_marked_ready_and_leaves_the_versions_in_the_global_index(
        neo4j_db, tenant, clock, monkeypatch):
    # given a tenant whose partition build waits for its indexes while another caller releases it
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    _fill(store, 0, 3)
    real = neo4j_db.run_schema

    def released_meanwhile(statement: str) -> None:
        if statement.startswith("CALL db.awaitIndex") and search_partition.names_of(neo4j_db, tenant) is not None:
            search_partition.release(neo4j_db, tenant)
        real(statement)

    monkeypatch.setattr(neo4j_db, "run_schema", released_meanwhile)
    # when the build goes on, then it stops as a lost race, and the tenant's versions stay in the global index
    with pytest.raises(RaceLost):
        search_partition.partition(neo4j_db, tenant)
    assert search_partition.names_of(neo4j_db, tenant) is None
    assert search_partition.cached_index(neo4j_db, tenant) is None
    assert _global_text(neo4j_db, tenant) == 3


def test_a_refused_batch_that_opened_a_fresh_tenants_partition_keeps_no_slot(neo4j_db, tenant, clock, monkeypatch):
    # given a threshold of 5 versions, a fresh tenant and free slots
    monkeypatch.setattr(search_partition, "THRESHOLD", 5)
    search_partition.settle(neo4j_db)
    if _free(neo4j_db) < search_partition.SLOT_LOW + 1:
        search_partition.make_slots(neo4j_db, search_partition.SLOT_BATCH)
    search_partition.settle(neo4j_db)
    free = _free(neo4j_db)
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    rows = [{"subject": f"Person {i}", "predicate": "owns", "object": f"Bicycle {i}"} for i in range(8)]
    rows[3]["depends_on"] = ["f_00000000000000000000"]  # a premise nobody stated: the write is refused
    # when the 8-row batch is refused inside its transaction
    with pytest.raises(NotFound):
        store.add_facts(rows)
    # then the tenant has no partition and the slot it opened is free again
    assert search_partition.names_of(neo4j_db, tenant) is None
    assert _free(neo4j_db) == free
