"""Embeddings: the `Embedder` interface and the default all-MiniLM-L6-v2 model, loaded offline once per process."""

from __future__ import annotations

import logging
import os
import threading
from typing import Protocol, runtime_checkable

from credo.schema.errors import ConfigError
from credo.services.adapters.minilm import DIMENSION, model_path  # noqa: F401 (DIMENSION: the interface's size)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length vectors of `dimension` floats."""

    dimension: int

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Embed a batch of texts."""
        ...


class MiniLMEmbedder:
    """sentence-transformers all-MiniLM-L6-v2, offline, normalised vectors, batch encoding."""

    dimension = DIMENSION
    batch_size = 64

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        self.path = model_path()
        self._model = SentenceTransformer(str(self.path), device="cpu")

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Embed a batch of texts into unit vectors."""
        if not texts:
            return []
        vectors = self._model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False)
        return [list(map(float, v)) for v in vectors]


BACKENDS = ("onnx", "torch")
_default: Embedder | None = None
_lock = threading.Lock()
log = logging.getLogger("credo")


def backend_setting() -> str:
    """CREDO_EMBEDDER_BACKEND: `onnx` (default: ONNX Runtime, ≈1.35× torch on this CPU, same vectors) or `torch`."""
    choice = os.environ.get("CREDO_EMBEDDER_BACKEND", "onnx").strip().lower() or "onnx"
    if choice not in BACKENDS:
        raise ConfigError(f"CREDO_EMBEDDER_BACKEND must be one of {', '.join(BACKENDS)}, not {choice!r}")
    return choice


def load_embedder(backend: str) -> Embedder:
    """The shipped model on `backend`; ONNX falls back to torch (with a warning) when onnxruntime is missing or
    the offline export cannot be made (e.g. an unwritable cache directory)."""
    if backend == "onnx":
        try:
            from credo.services.adapters.embedder_onnx import OnnxMiniLMEmbedder

            return OnnxMiniLMEmbedder()
        except Exception as exc:  # noqa: BLE001 - any failure to build the ONNX path leaves torch working
            log.warning("ONNX embedder unavailable (%s); using torch", exc)
    return MiniLMEmbedder()


def default_embedder() -> Embedder:
    """The process-wide default embedder on the configured backend (the model loads once per process)."""
    global _default
    with _lock:
        if _default is None:
            _default = load_embedder(backend_setting())
        return _default


class Readiness:
    """Whether the process's default embedder is ready to serve: `cold` (nobody asked for it yet), `preparing`
    (loading in the background), `ready` (loaded, and one text embedded so its first run is paid), `failed`."""

    def __init__(self) -> None:
        self.state = "cold"
        self.error: str | None = None
        self.seconds: float | None = None  # how long preparing took
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()

    def start(self) -> None:
        """Prepare the default embedder in a daemon thread, once per process (later calls do nothing)."""
        with self._guard:
            if self._thread is not None:
                return
            self.state = "preparing"
            self._thread = threading.Thread(target=self._prepare, name="credo-embedder", daemon=True)
            self._thread.start()

    def wait(self, timeout_s: float | None = None) -> str:
        """Wait for a started preparation to end; the state then."""
        if self._thread is not None:
            self._thread.join(timeout_s)
        return self.state

    def _prepare(self) -> None:
        import time

        began = time.monotonic()
        try:
            model = default_embedder()  # the model's load (and, on ONNX, its export if ./dev did not make it)
            model.embed(["Credo is ready."])  # the first (slowest) run of the one-text session a query uses
            model.embed(["Credo is ready.", "It answers at once."])  # and of the batch session writes use
        except Exception as exc:  # noqa: BLE001 - reported by /health; a request that embeds raises it again
            log.error("the default embedder could not be prepared: %s", exc)
            self.error, self.state = str(exc), "failed"
            return
        self.seconds = time.monotonic() - began
        self.state = "ready"
        log.info("the default embedder is ready (%.1f s)", self.seconds)


readiness = Readiness()
"""The default embedder's readiness in this process (`credo serve` starts preparing it; /health reports it)."""
