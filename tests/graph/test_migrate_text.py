"""Migration 0011's data step: versions written before it join the global `fact_text` index unless their tenant has
a ready full-text index of its own."""

from __future__ import annotations

from credo.cypher import Query
from credo.graph import search_partition
from credo.graph.migrate_text import label_small_tenants

_UNLABEL = Query("test_unlabel_text", "MATCH (f:Fact) WHERE f.tenant IN $tenants REMOVE f:FactText", frozenset())
_LABELLED = Query("test_labelled_text", "MATCH (f:Fact) WHERE f.tenant = $tenant "
                  "RETURN count(f) AS versions, count(CASE WHEN f:FactText THEN 1 END) AS labelled", frozenset())


def test_versions_from_before_the_migration_join_the_global_index_unless_their_tenant_has_its_own(neo4j_db, store,
                                                                                                 tenant):
    # given a small tenant and a partitioned one, both with versions written before migration 0011 (no :FactText)
    big = store.for_tenant(f"{tenant}_big")
    store.add_fact("Maria", "drinks", "Americano", statement="Maria drinks an Americano")
    big.add_fact("Office", "located_in", "Berlin", statement="The office is in Berlin")
    search_partition.partition(neo4j_db, big.tenant)
    neo4j_db.query(_UNLABEL, write=True, tenants=[tenant, big.tenant])
    # when the data step runs (twice: it is idempotent)
    label_small_tenants(neo4j_db)
    label_small_tenants(neo4j_db)
    # then the small tenant's versions are in the global index again, the partitioned tenant's are not
    assert neo4j_db.query(_LABELLED, tenant=tenant) == [{"versions": 1, "labelled": 1}]
    assert neo4j_db.query(_LABELLED, tenant=big.tenant) == [{"versions": 1, "labelled": 0}]
