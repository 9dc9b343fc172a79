"""Forget verification probes one vector index and one full-text index: the `fact_search` vector index filtered to the
tenant inside its search, and `fact_text` with the tenant's clause; each still finds a surviving copy of a
forgotten embedding or text, and never another tenant's."""

from __future__ import annotations

from credo.cypher import Query
from credo.store import Store
from tests.services.forget.test_forget import SECRET, HashEmbedder

# an embedding copied onto another version, with no text that the full-text probe could find
_PLANT = Query("raw", "MATCH (f:Fact {fact_id: $fact_id}) SET f.embedding = $embedding", frozenset())


def _vector_hits(report) -> list:
    return [r for r in report.residue if r.place == "vector"]


def _forgotten_beside_a_kept_fact(neo4j_db, tenant, clock):
    """A tenant with a forgotten fact and a kept one: (store, forgotten, kept)."""
    store = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False)
    f = store.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    keep = store.add_fact("Vault", "located_in", "Basement", valid_from="2024-01-01")
    assert store.forget(f.fact_id, reason="erasure", actor="dpo").report.complete
    return store, f, keep


def test_a_surviving_copy_of_a_forgotten_embedding_is_found_by_the_vector_probe(neo4j_db, tenant, clock):
    # given a forgotten fact, and its embedding surviving on another version of the tenant (no text copied)
    store, f, keep = _forgotten_beside_a_kept_fact(neo4j_db, tenant, clock)
    [vector] = HashEmbedder().embed([SECRET])
    neo4j_db.query(_PLANT, write=True, fact_id=keep.fact_id, embedding=vector)
    # when it is verified
    report = store.verify_forgotten(f.fact_id)
    # then the vector probe ran and names the surviving copy, found by the one vector index
    assert "vector" in report.probes and not report.complete
    hits = _vector_hits(report)
    assert [h.ref for h in hits] == [keep.version_id], report.residue
    assert "the fact_search vector index" in hits[0].detail, hits[0].detail


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


def test_a_copy_is_found_even_when_another_tenant_holds_many_nearer_vectors(neo4j_db, tenant, clock):
    # given a forgotten fact whose embedding survives on a version of this tenant, and 60 versions of another
    # tenant holding the very same vector (nearer than any other: they would fill an unfiltered top k)
    store, f, keep = _forgotten_beside_a_kept_fact(neo4j_db, tenant, clock)
    [vector] = HashEmbedder().embed([SECRET])
    other = store.for_tenant(f"{tenant}_crowd")
    crowd = other.add_facts([{"subject": f"Room {i}", "predicate": "located_in", "object": "Wing"}
                             for i in range(60)])
    for fact in crowd:
        neo4j_db.query(_PLANT, write=True, fact_id=fact.fact_id, embedding=vector)
    neo4j_db.query(_PLANT, write=True, fact_id=keep.fact_id, embedding=vector)
    # when it is verified
    report = store.verify_forgotten(f.fact_id)
    # then the index's tenant filter let this tenant's copy through, and only it
    assert [h.ref for h in _vector_hits(report)] == [keep.version_id], report.residue


def _operators(plan) -> list:
    return [plan] + [op for child in plan.get("children", []) for op in _operators(child)]


def test_the_residue_check_reads_the_tenants_vectors_through_the_index_not_one_by_one(neo4j_db, tenant, clock,
                                                                                    monkeypatch):
    # given a tenant of 300 versions, one of its facts forgotten
    store = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False)
    rows = [{"subject": f"Room {i}", "predicate": "located_in", "object": f"Wing {i % 7}", "valid_from": "2024-01-01"}
            for i in range(300)]
    facts = store.add_facts(rows)
    store.forget(facts[0].fact_id, reason="erasure", actor="dpo")
    from credo.graph.core import db as db_module
    from credo.graph.forget.forget import READ_FACT_COPIES

    seen: list[dict] = []
    rows_of = db_module.Tx.rows

    def capture(self, query, **params):
        if query.name == READ_FACT_COPIES.name:
            seen.append(params)
        return rows_of(self, query, **params)

    monkeypatch.setattr(db_module.Tx, "rows", capture)
    # when its residue is checked (the vector probe reads the index)
    assert store.verify_forgotten(facts[0].fact_id).complete
    monkeypatch.undo()
    assert seen and seen[-1]["embeddings"], "the vector probe ran"
    with neo4j_db._driver.session(database=neo4j_db.database) as session:
        plan = session.run("CYPHER 25 PROFILE " + READ_FACT_COPIES.body.replace("CYPHER 25", "", 1),
                           seen[-1]).consume().profile
    # then no operator of the check touches the tenant's versions one by one
    widest = max(_operators(plan), key=lambda op: op.get("rows", 0))
    assert widest.get("rows", 0) < 100, (widest["operatorType"], widest.get("rows"), widest["args"].get("Details"))


_PLANT_TEXT = Query("raw", "MATCH (f:Fact {fact_id: $fact_id}) SET f.quote = $text", frozenset())


def test_a_surviving_copy_of_a_forgotten_text_is_found_by_the_full_text_probe(neo4j_db, tenant, clock):
    # given a forgotten fact, and its statement surviving as the quote of another version of the tenant
    store, f, keep = _forgotten_beside_a_kept_fact(neo4j_db, tenant, clock)
    neo4j_db.query(_PLANT_TEXT, write=True, fact_id=keep.fact_id, text=SECRET)
    # when it is verified
    report = store.verify_forgotten(f.fact_id)
    # then the full-text probe finds the copy in the one full-text index of fact versions
    hits = [r for r in report.residue if r.place == "full-text"]
    assert [h.ref for h in hits] == [keep.version_id], report.residue
    assert "the fact_text index" in hits[0].detail, hits[0].detail
