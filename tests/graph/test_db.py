"""The driver layer: routing URIs work unchanged, reads route as reads, errors arrive translated."""

from __future__ import annotations

import pytest

from credo.graph.db import Database
from credo.schema.errors import DatabaseUnavailable
from credo.store import Store


def test_a_neo4j_routing_uri_works_unchanged_for_reads_and_writes(neo4j_info, tenant):
    routed = neo4j_info.uri.replace("bolt://", "neo4j://")
    db = Database(routed, neo4j_info.user, neo4j_info.password, neo4j_info.database, timeout_s=10)
    try:
        store = Store(db, tenant=tenant, embedder=None, _owns_db=False)
        fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
        assert [f.fact_id for f in store.facts("Acme account", "owned_by", valid_at="2024-02-01")] == [fact.fact_id]
    finally:
        db.close()


def test_wrong_credentials_are_a_database_unavailable_error_naming_the_cause(neo4j_info):
    db = Database(neo4j_info.uri, neo4j_info.user, "not-the-password", neo4j_info.database, timeout_s=5)
    try:
        with pytest.raises(DatabaseUnavailable) as err:
            db.verify()
        assert "authentication failed" in err.value.reason
    finally:
        db.close()
