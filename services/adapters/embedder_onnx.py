"""all-MiniLM-L6-v2 on ONNX Runtime: exported once, offline, from the shipped weights into Credo's cache.

The export runs the shipped model through `torch.onnx.export` (nothing is downloaded) and writes
`<CREDO_CACHE_DIR>/onnx/all-MiniLM-L6-v2/model.onnx` (and `model_int8.onnx`, dynamically quantised, on request).
Inference is the same pipeline as sentence-transformers' (tokenizer.json, truncation at 256 tokens, mean pooling
over the attention mask, L2 normalisation), so vectors match the torch ones (cosine ≥ 0.9999,
bench/history/journal.md).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from credo.schema.errors import ConfigError
from credo.services.adapters.minilm import DIMENSION, model_path

MAX_TOKENS = 256  # sentence_bert_config.json max_seq_length of the shipped model
_export_lock = threading.Lock()


def onnx_dir() -> Path:
    """Where the exported ONNX files live (under CREDO_CACHE_DIR, default ~/.cache/credo)."""
    from credo.settings import Settings

    return Path(Settings().cache_dir) / "onnx" / "all-MiniLM-L6-v2"


def exported(*, quantized: bool = False) -> Path:
    """The ONNX file of the shipped model, exported (and quantised) on first use; never downloads anything."""
    folder = onnx_dir()
    plain, int8 = folder / "model.onnx", folder / "model_int8.onnx"
    with _export_lock:
        if not plain.exists():
            _export(plain)
        if quantized and not int8.exists():
            from onnxruntime.quantization import QuantType, quantize_dynamic

            partial = int8.with_suffix(f".{os.getpid()}.partial")
            quantize_dynamic(str(plain), str(partial), weight_type=QuantType.QInt8)
            os.replace(partial, int8)
    return int8 if quantized else plain


def _export(target: Path) -> None:
    """torch.onnx.export of the shipped BERT encoder (eager attention: traces without data-dependent branches)."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    source = str(model_path())
    model = AutoModel.from_pretrained(source, attn_implementation="eager").eval()
    sample = AutoTokenizer.from_pretrained(source)(["Alice owns the Acme account.", "x"], padding=True,
                                                   return_tensors="pt")

    class Encoder(torch.nn.Module):
        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001 - traced tensors
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.partial")  # processes may export at once
    with torch.no_grad():
        torch.onnx.export(Encoder(model), tuple(sample[n] for n in names), str(partial), input_names=names,
                          output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                          dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names + ["last_hidden_state"]})
    os.replace(partial, target)


class OnnxMiniLMEmbedder:
    """The shipped all-MiniLM-L6-v2 on ONNX Runtime (CPU), normalised vectors, batch encoding."""

    dimension = DIMENSION

    def __init__(self, *, quantized: bool = False, batch_size: int = 64, threads: int | None = None,
                 spinning: bool = False) -> None:
        try:
            import numpy as np
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigError("the ONNX embedder needs the onnxruntime package") from exc
        self._np = np
        self.batch_size = batch_size
        self.path = exported(quantized=quantized)
        folder = model_path()
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        pad = json.loads((folder / "special_tokens_map.json").read_text()).get("pad_token", "[PAD]")
        pad = pad["content"] if isinstance(pad, dict) else pad
        self._tokenizer.enable_padding(pad_id=self._tokenizer.token_to_id(pad), pad_token=pad)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads:  # intra-op threads of a batch (default: ONNX Runtime's, one per physical core)
            options.intra_op_num_threads = threads
        if not spinning:  # idle pool threads sleep, not spin: the CPU goes to a write running meanwhile (import_facts)
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        self._ort = ort
        self._single: object | None = None  # a one-thread session for one text (a search's query), made on first use
        self._single_lock = threading.Lock()

    single_threads = 1  # a single short text gains nothing from a thread pool and loses much on a busy machine

    def _single_session(self) -> object:
        with self._single_lock:
            if self._single is None:
                ort = self._ort
                options = ort.SessionOptions()
                options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                options.intra_op_num_threads = self.single_threads
                options.inter_op_num_threads = 1
                self._single = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
            return self._single

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Embed a batch of texts into unit vectors (longest first, so each sub-batch pads little)."""
        if not texts:
            return []
        # measured: bench/history/journal.md (issue 25, 2026-12-03, Neo4j 2026.08.1): a second thread for the one
        # text took the 10k search from 1.47x to 1.71x its floor (1k: 1.32x to 1.43x); one thread stays
        if len(texts) == 1:  # same model and graph, one thread
            return self._encode(texts, self._single_session())
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out: list[list[float] | None] = [None] * len(texts)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start:start + self.batch_size]
            for i, v in zip(chunk, self._encode([texts[i] for i in chunk])):
                out[i] = v
        return out  # type: ignore[return-value]

    def _encode(self, texts: list[str], session: object | None = None) -> list[list[float]]:
        np = self._np
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        types = np.array([e.type_ids for e in encodings], dtype=np.int64)
        hidden = (session or self._session).run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})[0]
        weights = mask[..., None].astype(hidden.dtype)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return pooled.astype(float).tolist()
