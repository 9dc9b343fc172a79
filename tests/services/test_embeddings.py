"""The default embedder runs the shipped all-MiniLM-L6-v2 offline and captures meaning."""

from __future__ import annotations

from credo.services.embeddings import DIMENSION, Embedder, default_embedder


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def test_a_paraphrase_scores_closer_than_an_unrelated_sentence():
    model = default_embedder()
    assert isinstance(model, Embedder) and model is default_embedder()
    base, paraphrase, unrelated = model.embed([
        "Alice owns the Acme account.",
        "The Acme account belongs to Alice.",
        "The cafeteria serves soup on Fridays.",
    ])
    assert len(base) == DIMENSION == 384
    assert _cos(base, paraphrase) > _cos(base, unrelated) + 0.2


def test_facts_written_with_an_embedder_are_in_the_vector_index(neo4j_db, tenant):
    from credo.graph.facts import nearest
    from credo.store import Store

    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _owns_db=False)
    store.add_fact("Alice", "owns", "Acme account", statement="Alice owns the Acme account")
    store.add_fact("Cafeteria", "serves", "soup", statement="The cafeteria serves soup on Fridays")
    query = default_embedder().embed(["Who is the owner of the Acme account?"])[0]
    found = neo4j_db.read(lambda tx: nearest(tx, tenant, query, 2))
    assert [statement for _, statement, _ in found] == ["Alice owns the Acme account",
                                                       "The cafeteria serves soup on Fridays"]
