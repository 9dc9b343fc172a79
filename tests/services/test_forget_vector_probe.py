"""Forget verification's vector probe reads the tenant's own vectors: its partition index when it has one, an exact
scan of its versions otherwise (there is no global vector index: migration 0010), and still finds a surviving copy
of a forgotten embedding in both cases."""

from __future__ import annotations

import pytest

from credo.cypher import Query
from credo.graph import search_partition
from credo.store import Store
from tests.services.test_forget import SECRET, HashEmbedder

# an embedding copied onto another version, with no text that the full-text probe could find
_PLANT = Query("raw", "MATCH (f:Fact {fact_id: $fact_id}) SET f.embedding = $embedding", frozenset())


def _vector_hits(report) -> list:
    return [r for r in report.residue if r.place == "vector"]


def _forgotten_beside_a_kept_fact(neo4j_db, tenant, clock, partitioned: bool):
    """A tenant (given its own indexes, or not) with a forgotten fact and a kept one: (store, forgotten, kept)."""
    store = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False)
    f = store.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    keep = store.add_fact("Vault", "located_in", "Basement", valid_from="2024-01-01")
    if partitioned:
        search_partition.partition(neo4j_db, tenant)
    assert store.forget(f.fact_id, reason="erasure", actor="dpo").report.complete
    return store, f, keep


@pytest.mark.parametrize("partitioned", [False, True], ids=["exact scan", "own index"])
def test_a_surviving_copy_of_a_forgotten_embedding_is_found_by_the_vector_probe(neo4j_db, tenant, clock, partitioned):
    # given a forgotten fact, and its embedding surviving on another version of the tenant (no text copied)
    store, f, keep = _forgotten_beside_a_kept_fact(neo4j_db, tenant, clock, partitioned)
    [vector] = HashEmbedder().embed([SECRET])
    neo4j_db.query(_PLANT, write=True, fact_id=keep.fact_id, embedding=vector)
    # when it is verified
    report = store.verify_forgotten(f.fact_id)
    # then the vector probe ran and names the surviving copy, found where the tenant's vectors are
    assert "vector" in report.probes and not report.complete
    hits = _vector_hits(report)
    assert [h.ref for h in hits] == [keep.version_id], report.residue
    where = "the tenant's vector index" if partitioned else "an exact scan of the tenant's vectors"
    assert where in hits[0].detail, hits[0].detail


def test_another_tenants_copy_of_the_embedding_is_not_residue_of_this_tenant(neo4j_db, tenant, clock):
    # given a forgotten fact, and the same embedding held by a version of another tenant
    store = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False)
    f = store.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    other = store.for_tenant(f"{tenant}_other")
    theirs = other.add_fact("Vault", "located_in", "Basement", valid_from="2024-01-01")
    neo4j_db.query(_PLANT, write=True, fact_id=theirs.fact_id, embedding=HashEmbedder().embed([SECRET])[0])
    # when this tenant forgets and verifies
    report = store.forget(f.fact_id, reason="erasure", actor="dpo").report
    # then the vector probe ran and found nothing of the other tenant's
    assert "vector" in report.probes and _vector_hits(report) == [] and report.complete, report.residue


def _operators(plan) -> list:
    return [plan] + [op for child in plan.get("children", []) for op in _operators(child)]


def test_a_tenant_with_its_own_vector_index_is_not_also_scanned_exactly_by_the_residue_check(neo4j_db, tenant, clock,
                                                                                           monkeypatch):
    # given a tenant of 300 versions with its own (ready) vector index, and one of its facts forgotten
    store = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False)
    rows = [{"subject": f"Room {i}", "predicate": "located_in", "object": f"Wing {i % 7}", "valid_from": "2024-01-01"}
            for i in range(300)]
    facts = store.add_facts(rows)
    search_partition.partition(neo4j_db, tenant)
    store.forget(facts[0].fact_id, reason="erasure", actor="dpo")
    from credo.graph import db as db_module
    from credo.graph.forget import READ_FACT_COPIES

    seen: list[dict] = []
    rows_of = db_module.Tx.rows

    def capture(self, query, **params):
        if query.name == READ_FACT_COPIES.name:
            seen.append(params)
        return rows_of(self, query, **params)

    monkeypatch.setattr(db_module.Tx, "rows", capture)
    # when its residue is checked (the vector probe reads the tenant's index)
    assert store.verify_forgotten(facts[0].fact_id).complete
    monkeypatch.undo()
    assert seen and seen[-1]["embeddings"], "the vector probe ran"
    with neo4j_db._driver.session(database=neo4j_db.database) as session:
        plan = session.run("PROFILE " + READ_FACT_COPIES.text, seen[-1]).consume().profile
    # then no operator of the check touches the tenant's versions one by one: the exact scan is not run beside it
    widest = max(_operators(plan), key=lambda op: op.get("rows", 0))
    assert widest.get("rows", 0) < 100, (widest["operatorType"], widest.get("rows"), widest["args"].get("Details"))


_PLANT_TEXT = Query("raw", "MATCH (f:Fact {fact_id: $fact_id}) SET f.quote = $text", frozenset())


@pytest.mark.parametrize("partitioned", [False, True], ids=["global index", "own index"])
def test_a_surviving_copy_of_a_forgotten_text_is_found_by_the_full_text_probe(neo4j_db, tenant, clock, partitioned):
    # given a forgotten fact, and its statement surviving as the quote of another version of the tenant
    store, f, keep = _forgotten_beside_a_kept_fact(neo4j_db, tenant, clock, partitioned)
    neo4j_db.query(_PLANT_TEXT, write=True, fact_id=keep.fact_id, text=SECRET)
    # when it is verified
    report = store.verify_forgotten(f.fact_id)
    # then the full-text probe finds the copy in the index that holds the tenant's versions
    hits = [r for r in report.residue if r.place == "full-text"]
    assert [h.ref for h in hits] == [keep.version_id], report.residue
    where = "the tenant's full-text index" if partitioned else "the fact_text index"
    assert where in hits[0].detail, hits[0].detail
