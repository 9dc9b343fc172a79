"""Issue 12 item 2 gap: verify_forgotten from another handle (each REST request is one) is as thorough as from the
forgetting handle, because the content probe is stored with the forget until purge (DESIGN.md §7) — sealed under a
probe key in the key store both handles share (issue 24 §6: never in clear in the graph)."""

from __future__ import annotations

import pytest

from credo.cypher import Query
from credo.graph.core.db import Tx
from credo.schema.errors import NotFound
from credo.services.forget import seal as forget_seal
from credo.services.adapters.key_stores import FileKeyStore
from credo.store import Store
from tests.services.forget.test_forget import SECRET, HashEmbedder

_PLANT = Query("raw", "MATCH (f:Fact {fact_id: $fact_id}) SET f.quote = $text, f.embedding = $embedding",
               frozenset())
_PROBE_PROPS = Query("raw", "MATCH (p:ForgetProbe) WHERE p.tenant = $tenant RETURN properties(p) AS props",
                     frozenset())
_PROBE_NODES = Query("raw", "MATCH (p:ForgetProbe) WHERE p.tenant = $tenant RETURN count(p) AS n", frozenset())


def _other_handle(store: Store) -> Store:
    return Store(store._db, tenant=store.tenant, embedder=HashEmbedder(), _owns_db=False, keys=store._keys)


@pytest.fixture
def keys(tmp_path) -> FileKeyStore:
    return FileKeyStore(tmp_path / "keys")


def test_verify_from_another_handle_runs_the_text_and_vector_probes_with_the_stored_probe_and_purge_deletes_it(
        neo4j_db, tenant, clock, keys):
    # given a fact forgotten by one handle, and a copy of its text and embedding planted on another fact afterwards
    one = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False, keys=keys)
    f = one.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    keep = one.add_fact("Vault", "located_in", "Basement", valid_from="2024-01-01")
    assert one.forget(f.fact_id, reason="erasure", actor="dpo").report.complete
    [vector] = HashEmbedder().embed([SECRET])
    neo4j_db.query(_PLANT, write=True, fact_id=keep.fact_id, text=SECRET, embedding=vector)
    # when another handle (which never saw the content) verifies it
    report = _other_handle(one).verify_forgotten(f.fact_id)
    # then it ran the full-text and vector probes with the stored probe, and finds both copies
    assert {"graph", "full-text", "vector"} <= set(report.probes), report.probes
    assert report.probe_from == "stored with the forget until purge"
    assert {r.place for r in report.residue} >= {"full-text", "vector"}, report.residue
    # and the stored probe itself is not counted as residue, holds none of the words, and is deleted by purge with
    # its key
    assert all(r.place not in ("node property",) or r.ref != f.fact_id for r in report.residue)
    assert neo4j_db.query(_PROBE_NODES, tenant=tenant) == [{"n": 1}]
    [probe] = neo4j_db.query(_PROBE_PROPS, tenant=tenant)
    assert "7431" not in str(probe["props"]) and "vault" not in str(probe["props"]).lower()
    assert keys.list(forget_seal.key_space(tenant))
    one.purge(f.fact_id)
    assert neo4j_db.query(_PROBE_NODES, tenant=tenant) == [{"n": 0}]
    assert keys.list(forget_seal.key_space(tenant)) == []
    # and after purge the forgetting handle still verifies with its memory; another handle answers the tombstone
    assert one.verify_forgotten(f.fact_id).probe_from == "this handle's memory"
    gone = _other_handle(one).verify_forgotten(f.fact_id)
    assert gone.complete and gone.purged_at is not None
    assert (gone.tombstone.by, gone.tombstone.on_behalf_of) == (one.principal.actor, "dpo")
    with pytest.raises(NotFound):
        _other_handle(one).verify_forgotten("f_" + "0" * 20)


def test_a_probe_held_until_purge_makes_a_clean_forget_complete_from_any_handle(neo4j_db, tenant, clock, keys):
    # given a forgotten fact and nothing planted
    one = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False, keys=keys)
    f = one.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    one.forget(f.fact_id, reason="erasure", actor="dpo")
    # when the forgetting handle and another verify, then both ran every probe and are complete
    for handle, source in ((one, "this handle's memory"), (_other_handle(one), "stored with the forget until purge")):
        report = handle.verify_forgotten(f.fact_id)
        assert report.complete and report.probe_from == source
        assert {"graph", "full-text", "vector"} <= set(report.probes)


def test_a_subject_forgotten_in_batches_is_verified_from_another_handle_with_the_probe_its_batches_stored(
        neo4j_db, tenant, clock, keys):
    # given a person named by 12 facts, forgotten in batches of 5 by one handle
    one = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False, keys=keys)
    made = [one.add_fact("Dana Ray", "visited", f"Site {i}", valid_from="2024-01-01",
                         statement=f"Dana Ray visited the archive site number {i}") for i in range(12)]
    entity = made[0].subject_id
    job = one.forget_subject(entity, reason="erasure", actor="dpo", batch_size=5)
    assert job.report.complete
    # when another handle verifies the entity, then the text probes ran with the stored probe, and it is complete
    report = _other_handle(one).verify_forgotten(entity)
    assert report.probe_from == "stored with the forget until purge" and "full-text" in report.probes
    assert report.complete, report.residue
    # and purging the entity deletes the probe
    one.purge(entity)
    assert neo4j_db.query(_PROBE_NODES, tenant=tenant) == [{"n": 0}]


def test_forget_and_verify_of_a_fact_run_in_a_bounded_number_of_statements(neo4j_db, tenant, clock, keys, monkeypatch):
    # given a fact with an embedding, and a count of every statement sent to Neo4j
    one = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False, keys=keys)
    f = one.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    one.verify_forgotten(one.add_fact("Vault", "located_in", "Basement").fact_id)  # the retention setting is read
    sent: list[str] = []
    rows = Tx.rows

    def counted(self, query, **params):
        sent.append(query.name)
        return rows(self, query, **params)

    monkeypatch.setattr(Tx, "rows", counted)
    # when it is forgotten and verified (the bench's per-item unit)
    assert one.forget(f.fact_id, reason="erasure", actor="dpo").report.complete
    forget_statements = len(sent)
    assert one.verify_forgotten(f.fact_id).complete
    # then the forget (with its own report) and the verify each cost a few round trips, not one per probe (was 29;
    # 10 before the entities named only by the forgotten fact were reached: read_orphan_entities, scrub_entities)
    assert forget_statements <= 12, "|".join(sent)
    assert len(sent) - forget_statements == 1, sent[forget_statements:]
    assert "read_tx_log_retention" not in sent
