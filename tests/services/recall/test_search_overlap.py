"""What a search waits for: the lexical and graph paths are read while the question is embedded (issue 11, latency)."""

from __future__ import annotations

import threading
import time

from credo.graph.core import db as graph_db
from credo.graph.recall import search as search_repo
from credo.services.adapters.embeddings import default_embedder
from credo.store import Store


class SlowEmbedder:
    """The default embedder, taking `delay_s` longer per call (so what overlaps the embedding is observable)."""

    def __init__(self, delay_s: float) -> None:
        self._inner = default_embedder()
        self.dimension = self._inner.dimension
        self.delay_s = delay_s
        self.done_at: list[float] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        """The inner embedder's vectors, after the delay; records when they were ready."""
        time.sleep(self.delay_s)
        vectors = self._inner.embed(texts)
        self.done_at.append(time.perf_counter())
        return vectors


def test_the_lexical_and_graph_paths_are_read_while_the_question_is_embedded(neo4j_db, tenant, clock, monkeypatch):
    # given a tenant with facts about a named entity, searched with an embedder that takes a second
    embedder = SlowEmbedder(0.0)
    store = Store(neo4j_db, tenant=tenant, embedder=embedder, _clock=clock, _owns_db=False)
    store.add_fact("Acme", "owned_by", "Alice", statement="Alice owns the Acme account", valid_from="2024-01-01")
    store.add_fact("Acme", "located_in", "Berlin", statement="Acme sits in Berlin", valid_from="2024-01-01")
    store.search("who is in Berlin", kinds=["fact"])  # plans cached and connections open, as in steady use
    embedder.delay_s, embedder.done_at = 1.0, []
    finished: list[tuple[frozenset[str], float]] = []  # (paths a fact query read, when its rows were in)
    lock = threading.Lock()
    rows = graph_db.Tx.rows

    def spy(self, query, **params):
        found = rows(self, query, **params)
        if query is search_repo.SEARCH_FACTS:
            with lock:
                finished.append((frozenset(p for p, cut in params["cuts"].items() if cut > 0), time.perf_counter()))
        elif query is search_repo.SEARCH_LOOKUPS:  # entities, summaries and the lexical path in one query
            with lock:
                finished.append((frozenset({"lexical"} if params["cut"] > 0 else ()), time.perf_counter()))
        return found

    monkeypatch.setattr(graph_db.Tx, "rows", spy)
    # when the tenant asks about the entity
    hits = store.search("who owns Acme", kinds=["fact"]).hits
    # then the facts are found on all three paths, and the lexical and graph paths were read before the embedding
    # was ready (only the vector path waits for it)
    assert hits[0].text == "Alice owns the Acme account" and set(hits[0].paths) == {"lexical", "vector", "graph"}
    (embedded,) = embedder.done_at
    early = [paths for paths, at in finished if at < embedded]
    assert early and all("vector" not in paths for paths in early), [(sorted(p), round(at - embedded, 3))
                                                                      for p, at in finished]
    assert {"lexical", "graph"} <= set().union(*early)
    assert all(at > embedded for paths, at in finished if "vector" in paths)
