"""A name is looked up by its (tenant, norm) key, so resolving or reading one costs the same however many entities
the tenant holds (a scan of the tenant's entities per name made ingest quadratic in the batch)."""

from __future__ import annotations

import pytest

from datetime import datetime, timezone

from credo.graph.recall.context_reads import READ_ENTITIES_BY_NORMS
from credo.graph.facts.entities import READ_ENTITY, RESOLVE_ENTITIES, normalise
from credo.graph.core.versions import (
    READ_FACTS_BY_OBJECT_NAME, READ_FACTS_BY_SUBJECT_NAME, READ_NAMES_AND_HELD, READ_RELATIONS,
)
from credo.graph.core.ledger import new_id
from credo.schema.lifecycle import SERVED_VALUES
from credo.store import Store

FAR = "9999-12-31T00:00:00+00:00"
AT = "2025-06-01T00:00:00+00:00"
PER_NAME = 60  # database hits one name may cost: a few index seeks and property reads, never the tenant's entities


def _hits(profile: dict) -> int:
    return profile.get("dbHits", 0) + sum(_hits(child) for child in profile.get("children", []))


def _profiled_hits(db, text: str, **params) -> int:
    """Total database hits of one PROFILEd run, in a transaction rolled back afterwards (nothing is written)."""
    with db._driver.session(database=db.database) as session, session.begin_transaction() as tx:
        result = tx.run("PROFILE " + text, params)
        list(result)
        hits = _hits(result.consume().profile)
        tx.rollback()
    return hits


def _tenant_with_entities(neo4j_db, tenant: str, clock, n: int) -> Store:
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    store.define_predicate("knows", cardinality="multi")
    store.add_facts([{"subject": f"Person {i}", "predicate": "knows", "object": f"Friend {i}", "valid_from": "2020"}
                     for i in range(n // 2)])
    return store


def test_resolving_names_seeks_each_name_instead_of_scanning_the_tenant(neo4j_db, tenant, clock):
    # given a tenant that already holds 600 entities
    _tenant_with_entities(neo4j_db, tenant, clock, 600)
    # when 20 of its names and 20 new ones are resolved in one batch
    names = [f"Person {i}" for i in range(20)] + [f"Stranger {i}" for i in range(20)]
    rows = [{"norm": normalise(n), "name": n, "new_id": new_id("e"), "kind": None} for n in names]
    hits = _profiled_hits(neo4j_db, RESOLVE_ENTITIES.text, tenant=tenant, known=datetime.now(timezone.utc), rows=rows)
    # then each name costs a few index seeks, not a pass over the tenant's 600 entities
    assert hits <= PER_NAME * len(names), hits


def test_a_batch_read_of_names_and_held_versions_seeks_each_name_and_subject_instead_of_scanning_the_tenant(
        neo4j_db, tenant, clock):
    # given a tenant that already holds 600 entities and 300 facts
    _tenant_with_entities(neo4j_db, tenant, clock, 600)
    # when a batch of 20 stored subjects and 20 new ones reads its names and what the conflict rule must respect
    names = [normalise(f"Person {i}") for i in range(20)] + [normalise(f"Stranger {i}") for i in range(20)]
    asks = [{"subject_at": i, "predicate": "knows", "object_at": None, "object_type": None, "object_value": None}
            for i in range(len(names))]
    hits = _profiled_hits(neo4j_db, READ_NAMES_AND_HELD.text, tenant=tenant, names=names, asks=asks,
                          states=list(SERVED_VALUES))
    # then each name and each ask costs a few seeks, not a pass over the tenant's entities or facts
    assert hits <= PER_NAME * len(names), hits


@pytest.mark.parametrize("levels", [["*", "*"], ["public", "internal"]], ids=["clearance all", "clearance internal"])
def test_reading_by_name_seeks_the_name_instead_of_scanning_the_tenant(neo4j_db, tenant, clock, levels):
    # given a tenant that already holds 600 entities
    _tenant_with_entities(neo4j_db, tenant, clock, 600)
    point = {"tenant": tenant, "valid_at": AT, "known_at": FAR, "states": list(SERVED_VALUES),
             "include_undated": True, "any_valid": False, "predicate": "knows", "scope_key": None, "levels": levels}
    # when one name is read by each query that resolves a name
    reads = {
        "read_entity": (READ_ENTITY, {"tenant": tenant, "norm": "person 7", "known_at": FAR, "levels": levels}),
        "read_entities_by_norms": (READ_ENTITIES_BY_NORMS, {"tenant": tenant, "norms": ["person 7"],
                                                            "levels": levels}),
        "facts by subject": (READ_FACTS_BY_SUBJECT_NAME, {**point, "norm": "person 7", "object_norm": "friend 7",
                                                          "object_value": None}),
        "facts by object": (READ_FACTS_BY_OBJECT_NAME, {**point, "norm": "friend 7"}),
        "relations": (READ_RELATIONS, {"tenant": tenant, "norm": "person 7", "valid_at": AT, "known_at": FAR,
                                       "states": list(SERVED_VALUES), "levels": levels}),
    }
    costs = {name: _profiled_hits(neo4j_db, query.text, **params) for name, (query, params) in reads.items()}
    # then none of them costs more than a few index seeks and the one fact's properties
    assert {name: hits for name, hits in costs.items() if hits > 2 * PER_NAME} == {}, costs
