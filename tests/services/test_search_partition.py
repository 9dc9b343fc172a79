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
