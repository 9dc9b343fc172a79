"""The default embedder runs the shipped all-MiniLM-L6-v2 offline and captures meaning."""

from __future__ import annotations

import math
import sys

import pytest

from credo.schema.errors import ConfigError
from credo.services.adapters.embeddings import DIMENSION, Embedder, backend_setting, default_embedder, load_embedder


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


@pytest.mark.parametrize("backend, kind", [("torch", "MiniLMEmbedder"), ("onnx", "OnnxMiniLMEmbedder")])
def test_each_backend_gives_unit_vectors_of_384_dims_that_capture_meaning(backend, kind):
    # given the shipped model on this backend (ONNX exported offline from the shipped weights on first use)
    model = load_embedder(backend)
    assert type(model).__name__ == kind and isinstance(model, Embedder)
    # when three sentences are embedded
    vectors = model.embed(["Alice owns the Acme account.", "The Acme account belongs to Alice.",
                           "The cafeteria serves soup on Fridays."])
    # then each is a unit vector of 384 floats and the paraphrase is the closer one
    assert all(len(v) == DIMENSION and math.isclose(math.fsum(x * x for x in v), 1.0, abs_tol=1e-5) for v in vectors)
    base, paraphrase, unrelated = vectors
    assert _cos(base, paraphrase) > _cos(base, unrelated) + 0.2


def test_onnx_gives_the_torch_vectors():
    texts = ["Getafe CF playsfor Spain", "Albert Einstein haswonprize Nobel Prize in Physics", "x", "a " * 400]
    for a, b in zip(load_embedder("onnx").embed(texts), load_embedder("torch").embed(texts)):
        assert _cos(a, b) > 0.999


def test_the_default_backend_is_onnx_and_the_setting_chooses_or_refuses(monkeypatch):
    monkeypatch.delenv("CREDO_EMBEDDER_BACKEND", raising=False)
    assert backend_setting() == "onnx"
    monkeypatch.setenv("CREDO_EMBEDDER_BACKEND", "Torch")
    assert backend_setting() == "torch"
    monkeypatch.setenv("CREDO_EMBEDDER_BACKEND", "tensorflow")
    with pytest.raises(ConfigError):
        backend_setting()


def test_without_onnxruntime_the_onnx_backend_falls_back_to_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # `import onnxruntime` raises ImportError
    assert type(load_embedder("onnx")).__name__ == "MiniLMEmbedder"


def test_facts_written_with_an_embedder_are_found_by_the_vector_path(neo4j_db, tenant):
    from credo.store import Store

    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _owns_db=False)
    store.add_fact("Alice", "owns", "Acme account", statement="Alice owns the Acme account")
    store.add_fact("Cafeteria", "serves", "soup", statement="The cafeteria serves soup on Fridays")
    found = store.search("Who is the owner of the Acme account?", kinds=["fact"], limit=2)
    by_vector = sorted((h for h in found.hits if "vector" in h.paths), key=lambda h: h.paths["vector"].rank)
    # the related fact by meaning; the unrelated one stays under the vector path's similarity floor (search_rules)
    assert [h.text for h in by_vector] == ["Alice owns the Acme account"]


def test_a_single_query_text_is_embedded_on_its_own_one_thread_session_with_the_batch_vector():
    # given the ONNX embedder and questions embedded as one batch
    from credo.services.adapters.embedder_onnx import OnnxMiniLMEmbedder

    embedder = OnnxMiniLMEmbedder()
    texts = ["who looks after the billing ledger?", "something to keep me awake", "Maria takes an Americano"]
    batch = embedder.embed(texts)
    # when each is embedded alone (a search's query)
    alone = [embedder.embed([t])[0] for t in texts]
    # then a one-thread session answered (no thread pool to contend for on a busy machine), with the same vectors
    assert embedder.single_threads == 1
    for a, b in zip(batch, alone):
        assert sum(x * y for x, y in zip(a, b)) >= 0.99999
