"""Migrations apply once, record their version, and leave every index ONLINE."""

from __future__ import annotations

from neomodel import StructuredNode

from credo.cypher import Query
from credo.graph.core import models
from credo.ops.migrate import migrate, status
from credo.graph.core.queries import READ_INDEX_PROPERTIES


def test_migrating_again_is_a_no_op_and_the_version_is_recorded(neo4j_db):
    assert migrate(neo4j_db) == []
    report = status(neo4j_db)
    assert report["applied"][0] == "0001_initial" and report["pending"] == []


def test_full_text_indexes_are_online_and_no_global_vector_index_remains(neo4j_db):
    indexes = {i["name"]: i for i in status(neo4j_db)["indexes"]}
    assert indexes["fact_text"]["type"] == "FULLTEXT" and indexes["fact_text"]["state"] == "ONLINE"
    assert indexes["entity_text"]["type"] == "FULLTEXT" and indexes["entity_text"]["state"] == "ONLINE"
    assert "fact_embedding" not in indexes  # migration 0010: a tenant's vectors live in its own index only
    assert all(i["state"] == "ONLINE" for i in indexes.values())


def test_one_vector_index_serves_search_filtering_tenant_times_and_clearance_at_full_precision(neo4j_db):
    [index] = neo4j_db.query(Query("test_vector_indexes", "SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, "
                                   "options RETURN name, labelsOrTypes, properties, options", frozenset()))
    assert (index["name"], index["labelsOrTypes"]) == ("fact_search", ["Fact"])
    assert index["properties"] == ["embedding", "tenant", "known_from_key", "known_to_key", "valid_from_key",
                                   "valid_to_key", "sensitivity_rank"]
    config = index["options"]["indexConfig"]
    # the default BINARY quantization found 0.918 of the true top 10 on YAGO text, 'none' 0.980 (bench/RESULTS.md)
    assert config["vector.quantization.type"] in ("NONE", "none") and config["vector.dimensions"] == 384


def test_every_unique_or_indexed_neomodel_property_is_backed_by_the_migrated_schema(neo4j_db):
    rows = neo4j_db.query(READ_INDEX_PROPERTIES)
    backed = {(r["label"], p) for r in rows for p in r["properties"]}
    declared: list[tuple[str, str]] = []
    for cls in models.DECLARED:
        assert issubclass(cls, StructuredNode)
        for name, prop in cls.defined_properties(aliases=False, rels=False).items():
            if getattr(prop, "unique_index", False) or getattr(prop, "index", False):
                declared.append((cls.__name__, name))
    missing = [d for d in declared if d not in backed]
    assert declared and not missing, f"declared in graph/core/models.py but not in cypher/schema: {missing}"
