"""Vectors travel to Neo4j intact while the driver's eager debug-log `repr()` of every parameter stays cheap."""

from __future__ import annotations

import random

from credo.cypher import Query
from credo.store import Store


class _FixedEmbedder:
    """Deterministic 384-d vectors (not unit length, many digits) so a lossy or truncated transfer would show."""

    dimension = 384

    def __init__(self) -> None:
        self.made: dict[str, list[float]] = {}

    def embed(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            rng = random.Random(text)
            self.made[text] = [rng.uniform(-1, 1) for _ in range(self.dimension)]
            out.append(self.made[text])
        return out


_READ_EMBEDDING = Query(
    name="test_read_embedding",
    text="MATCH (f:Fact {tenant: $tenant, statement: $statement}) RETURN f.embedding AS embedding",
    declared=frozenset({"tenant", "statement"}),
)


def test_a_written_vector_arrives_in_neo4j_float_for_float(neo4j_db, tenant):
    # given a store whose embedder hands out exact 384-float vectors
    embedder = _FixedEmbedder()
    store = Store(neo4j_db, tenant=tenant, embedder=embedder, _owns_db=False)
    # when a batch of facts is written
    store.add_facts([{"subject": f"Person {i}", "predicate": "works_for", "object": "Acme",
                      "statement": f"Person {i} works for Acme"} for i in range(3)])
    # then each stored embedding is the very list of floats the embedder made for its statement
    for i in range(3):
        statement = f"Person {i} works for Acme"
        stored = neo4j_db.query(_READ_EMBEDDING, tenant=tenant, statement=statement)[0]["embedding"]
        assert stored == embedder.made[statement]


def test_a_vector_parameter_has_a_short_repr_and_stays_a_list():
    from credo.graph.core.vectors import Vector

    values = [random.random() for _ in range(384)]
    # given a vector as the write path passes it to the driver
    vector = Vector(values)
    # then it is still the same list of floats, but its repr (which the driver builds on every run()) is short
    assert isinstance(vector, list) and vector == values and len(vector) == 384
    assert len(repr({"rows": [{"embedding": vector}]})) < 80
    assert len(repr(values)) > 5_000

