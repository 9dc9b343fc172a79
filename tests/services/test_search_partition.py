"""A tenant past the threshold gets its own vector index: search then queries it, and new versions join it."""

from __future__ import annotations

from credo.graph import search_partition
from credo.services.embeddings import default_embedder
from credo.store import Store


def test_a_partitioned_tenant_is_searched_through_its_own_index_and_new_versions_join_it(neo4j_db, tenant, clock):
    # given a tenant with a few facts, partitioned (as maintain() does past the threshold)
    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)
    store.add_fact("Maria", "drinks", "Americano", statement="Maria takes an Americano, no sugar")
    store.add_fact("Office", "located_in", "Berlin", statement="The office is located in Berlin")
    assert neo4j_db.read(lambda tx: search_partition.index_for(tx, tenant)) is None
    assert search_partition.needs_partition(neo4j_db, tenant, threshold=2)
    index = search_partition.partition(neo4j_db, tenant)
    # when a version is written after the partition and one is succeeded
    store.add_fact("Team", "eats", "soup", statement="The team eats soup at noon")
    office = store.facts("Office")[0]
    store.succeed_fact(office.fact_id, object="Munich", at="2025-06-01", statement="The office is located in Munich")
    # then search uses the tenant's own index, and finds old, new and succeeded versions by meaning
    assert neo4j_db.read(lambda tx: search_partition.index_for(tx, tenant)) == index
    assert not search_partition.needs_partition(neo4j_db, tenant, threshold=2)
    coffee = store.search("a hot drink with caffeine", kinds=["fact"], limit=1).hits[0]
    assert coffee.text == "Maria takes an Americano, no sugar" and "vector" in coffee.paths
    lunch = store.search("what do we have for lunch", kinds=["fact"], limit=1).hits[0]
    assert lunch.text == "The team eats soup at noon" and "vector" in lunch.paths
    city = store.search("which city is the workplace in", kinds=["fact"], limit=3, valid_at="2025-07-01")
    assert "The office is located in Munich" in [h.text for h in city.hits if "vector" in h.paths]
    assert "The office is located in Berlin" not in [h.text for h in city.hits]  # ended by then


def test_a_tenant_whose_ingest_crosses_the_threshold_gets_its_own_index_without_maintain(neo4j_db, tenant, clock,
                                                                                          monkeypatch):
    # given a threshold of 3 versions and a tenant with 2 facts (no partition yet)
    monkeypatch.setattr(search_partition, "THRESHOLD", 3)
    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)
    store.add_facts([{"subject": "Maria", "predicate": "drinks", "object": "Americano",
                      "statement": "Maria takes an Americano, no sugar"},
                     {"subject": "Office", "predicate": "located_in", "object": "Berlin",
                      "statement": "The office is located in Berlin"}])
    assert neo4j_db.read(lambda tx: search_partition.index_for(tx, tenant)) is None
    # when an ingest takes it past the threshold (no maintain() call)
    store.add_fact("Team", "eats", "soup", statement="The team eats soup at noon")
    # then the tenant gets its own ready index (built in the background: settle waits for it), search finds every
    # version through it, and later versions join it
    search_partition.settle(neo4j_db)
    index = neo4j_db.read(lambda tx: search_partition.index_for(tx, tenant))
    assert index == search_partition.names_of(neo4j_db, tenant)[1] and index.startswith("fact_embedding_s_")
    store.add_fact("Bob", "plays", "chess", statement="Bob plays chess on Sundays")
    found = neo4j_db.query(search_partition.READ_PARTITION_MEMBERS, tenant=tenant)[0]
    assert found == {"versions": 4, "labelled": 4}
    coffee = store.search("a hot drink with caffeine", kinds=["fact"], limit=1).hits[0]
    assert coffee.text == "Maria takes an Americano, no sugar" and "vector" in coffee.paths


def test_the_exact_scan_cut_to_its_best_candidates_still_never_lets_hidden_versions_take_the_slots(neo4j_db, tenant,
                                                                                                   clock):
    # given a small tenant (exact scan) whose 230 facts closest to a question all ended in 2020, and one visible fact
    # about the same thing in other words
    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)
    store.add_facts([{"subject": f"Cafe {i}", "predicate": "serves", "object": f"espresso {i}",
                      "statement": f"Cafe {i} serves strong espresso coffee", "valid_from": "2019-01-01",
                      "valid_to": "2020-01-01"} for i in range(230)])
    store.add_fact("Maria", "drinks", "Americano", statement="Maria takes an Americano, no sugar")
    assert neo4j_db.read(lambda tx: search_partition.index_for(tx, tenant)) is None
    # when the vector path alone is asked for the best hit now
    from credo.services import search as search_service
    hits = search_service.search(store._ctx, query="strong espresso coffee", kinds=["fact"], limit=1,
                                 paths=frozenset({"vector"})).hits
    # then the visible fact is served, none of the ended ones
    assert [h.text for h in hits] == ["Maria takes an Americano, no sugar"]


def test_a_partition_that_cannot_be_built_after_the_commit_does_not_fail_the_committed_write(neo4j_db, tenant, clock,
                                                                                              monkeypatch):
    # given a threshold of 1 version and a partition build that fails (e.g. the server refused the DDL)
    monkeypatch.setattr(search_partition, "THRESHOLD", 1)

    def refused(db, tenant, **_kw):
        raise RuntimeError("DDL refused")

    monkeypatch.setattr(search_partition, "partition", refused)
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    # when a write takes the tenant past the threshold
    fact = store.add_fact("Maria", "drinks", "Americano", statement="Maria takes an Americano, no sugar")
    # then the write is answered and kept; the tenant has no index yet (maintain() builds it later)
    assert [f.fact_id for f in store.facts("Maria")] == [fact.fact_id]
    assert neo4j_db.read(lambda tx: search_partition.index_for(tx, tenant)) is None


def test_a_partitioned_tenants_lexical_search_reads_only_its_own_full_text_index(neo4j_db, store, tenant):
    # given a partitioned tenant with two facts sharing a rare word, one of them taken out of the partition by hand
    # (still a :Fact of the tenant, so the global `fact_text` index holds it, but not under the tenant's label)
    from credo.cypher import Query

    store.add_fact("Maria", "drinks", "Americano", statement="Maria drinks a zygomorphic Americano")
    store.add_fact("Office", "located_in", "Berlin", statement="The zygomorphic office is in Berlin")
    search_partition.partition(neo4j_db, tenant)
    label, _index, own = search_partition.names_of(neo4j_db, tenant)
    unlabel = Query("test_unlabel", f"MATCH (f:Fact {{tenant: $tenant}}) WHERE f.subject_name = 'Office' "
                    f"REMOVE f:{label} RETURN count(f) AS n", frozenset({"tenant"}))
    assert neo4j_db.write(lambda tx: tx.one(unlabel, tenant=tenant))["n"] == 1
    # when the tenant searches by full text for the rare word
    from credo.services import search as search_service

    hits = search_service.search(store._ctx, query="zygomorphic", kinds=["fact"], paths=frozenset({"lexical"})).hits
    # then only the version its own full-text index holds is found: the global index is not read for it
    assert [h.text for h in hits] == ["Maria drinks a zygomorphic Americano"]
    assert neo4j_db.read(lambda tx: search_partition.indexes_for(tx, tenant))[1] == own


def _text_hits(db, index: str, word: str, tenant: str) -> list[str]:
    from credo.cypher import Query

    query = Query("test_text_hits", "CALL db.index.fulltext.queryNodes($index, $word) YIELD node "
                  "WITH node WHERE node.tenant = $tenant RETURN node.statement AS statement ORDER BY statement",
                  frozenset({"index", "word", "tenant"}))
    return [r["statement"] for r in db.query(query, index=index, word=word, tenant=tenant)]


def test_a_version_enters_one_full_text_index_the_global_one_before_its_tenant_has_its_own_and_then_only_that(
        neo4j_db, store, tenant):
    # given a small tenant's fact: the global `fact_text` index holds it
    store.add_fact("Maria", "drinks", "Americano", statement="Maria drinks a quinquennial Americano")
    assert _text_hits(neo4j_db, "fact_text", "quinquennial", tenant) == ["Maria drinks a quinquennial Americano"]
    # when the tenant gets its own full-text index, and then writes another fact
    search_partition.partition(neo4j_db, tenant)
    store.add_fact("Office", "located_in", "Berlin", statement="The quinquennial office is in Berlin")
    # then both versions are in the tenant's own index and neither is still in the global one
    own = search_partition.names_of(neo4j_db, tenant)[2]
    assert _text_hits(neo4j_db, own, "quinquennial", tenant) == ["Maria drinks a quinquennial Americano",
                                                                 "The quinquennial office is in Berlin"]
    assert _text_hits(neo4j_db, "fact_text", "quinquennial", tenant) == []
    # and lexical search still finds both
    found = store.search("quinquennial", kinds=["fact"]).hits
    assert sorted(h.text for h in found if "lexical" in h.paths) == ["Maria drinks a quinquennial Americano",
                                                                    "The quinquennial office is in Berlin"]
