"""Issue 9 benchmark: the embedder's raw throughput (torch vs ONNX Runtime), its quality gate, the driver's
`repr` cost of vector parameters, and ingest with the default embedder as a share of the embedder alone.

    .venv/bin/python bench/bench_embeddings.py [--texts 2000] [--sample 500] [--queries 100] [--ingest 2000]

Texts are real statements as Credo builds them from YAGO11k rows (`"<subject> <predicate> <object>"`, predicate
normalised). Quality gate for a backend: cosine ≥ 0.99 against the torch vectors on `--sample` statements (the
minimum is reported) and the same nearest neighbour (among the sample) for `--queries` question-form queries.
The ingest part (skipped with `--ingest 0`) needs Neo4j (NEO4J_URI …): it loads `--ingest` rows through
`add_facts` with the default embedder into a fresh tenant and compares with the raw embedder on the same texts,
in the same run; it deletes the tenant afterwards.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bitemporal import YAGO, cleanup, load_yago  # noqa: E402

from credo.schema.names import normalise_predicate  # noqa: E402


def statements(rows) -> list[str]:
    """The default statements Credo writes for these rows."""
    return [f"{r.subject} {normalise_predicate(r.predicate)} {r.object}" for r in rows]


def rate(embedder, texts: list[str]) -> float:
    """Texts per second of one embed() call over all texts (after a small warm-up)."""
    embedder.embed(texts[:32])
    t0 = time.perf_counter()
    embedder.embed(texts)
    return len(texts) / (time.perf_counter() - t0)


def quality(reference: list[list[float]], candidate: list[list[float]], queries_ref, queries_cand) -> tuple:
    """(min cosine, mean cosine, share of queries with the same nearest neighbour)."""
    import numpy as np

    ref, cand = np.array(reference), np.array(candidate)
    cosines = (ref * cand).sum(axis=1)
    same = (np.argmax(np.array(queries_ref) @ ref.T, axis=1) == np.argmax(np.array(queries_cand) @ cand.T, axis=1))
    return float(cosines.min()), float(cosines.mean()), float(same.mean())


def repr_cost(vectors: int = 1000) -> tuple[float, float]:
    """Seconds of the driver's debug-log repr of a 1,000-vector parameter list: plain lists vs graph.vectors.Vector."""
    from credo.graph.vectors import Vector

    rng = random.Random(9)
    plain = [{"props": {"embedding": [rng.uniform(-1, 1) for _ in range(384)]}} for _ in range(vectors)]
    wrapped = [{"props": {"embedding": Vector(p["props"]["embedding"])}} for p in plain]
    out = []
    for rows in (plain, wrapped):
        t0 = time.perf_counter()
        " ".join(map(repr, ("UNWIND $rows AS row ...", {"rows": rows}, {})))  # what _bolt5.run() evaluates
        out.append(time.perf_counter() - t0)
    return out[0], out[1]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2000, help="statements for the throughput figures")
    parser.add_argument("--sample", type=int, default=500, help="statements for the cosine gate")
    parser.add_argument("--queries", type=int, default=100, help="queries for the nearest-neighbour gate")
    parser.add_argument("--ingest", type=int, default=2000, help="rows ingested with the default embedder (0: skip)")
    parser.add_argument("--rounds", type=int, default=3, help="alternated torch / onnx rounds for the speed ratio")
    parser.add_argument("--batch", type=int, default=1000, help="facts per add_facts call in the ingest part")
    args = parser.parse_args(argv)
    import torch

    from credo.services.embedder_onnx import OnnxMiniLMEmbedder
    from credo.services.embeddings import MiniLMEmbedder, default_embedder

    rows, _ = load_yago(YAGO)
    rng = random.Random(9)
    texts = statements(rng.sample(rows, args.texts))
    print(f"load average {os.getloadavg()[0]:.2f}, torch threads {torch.get_num_threads()}, {len(texts)} statements "
          f"(mean {sum(map(len, texts)) / len(texts):.0f} chars)")

    torch_model = MiniLMEmbedder()
    for batch in (16, 64, 256):
        torch_model.batch_size = batch
        print(f"raw torch  batch {batch:>3}: {rate(torch_model, texts):7.1f} texts/s")
    torch_model.batch_size = 64
    sample = texts[:args.sample]
    queries = [f"Who or what does {r.subject} {normalise_predicate(r.predicate)}?" for r in rows[:args.queries]]
    reference, ref_queries = torch_model.embed(sample), torch_model.embed(queries)
    for name, quantized in (("onnx fp32", False), ("onnx int8", True)):
        model = OnnxMiniLMEmbedder(quantized=quantized)
        for batch in (16, 64, 256):
            model.batch_size = batch
            print(f"raw {name} batch {batch:>3}: {rate(model, texts):7.1f} texts/s")
        low, mean, same = quality(reference, model.embed(sample), ref_queries, model.embed(queries))
        verdict = "faithful" if low >= 0.99 and same == 1.0 else "NOT faithful"
        print(f"quality {name}: cosine vs torch min {low:.5f} mean {mean:.5f} on {len(sample)}; same nearest "
              f"neighbour {same:.0%} of {len(queries)} queries -> {verdict}")

    fp32 = OnnxMiniLMEmbedder()
    ratios = []
    for _ in range(args.rounds):  # alternated, so a change of the machine's load hits both backends alike
        ratios.append(rate(fp32, texts[:500]) / rate(torch_model, texts[:500]))
    print(f"onnx fp32 / torch at batch 64, {args.rounds} alternated rounds of 500 statements: "
          f"{', '.join(f'{r:.2f}' for r in ratios)} (median {sorted(ratios)[len(ratios) // 2]:.2f}x)")

    before, after = repr_cost()
    print(f"driver repr of 1,000 384-d vectors: plain lists {before * 1000:.0f} ms, Vector {after * 1000:.2f} ms")

    if args.ingest:
        import credo

        import floor

        embedder = default_embedder()
        chosen = rows[:args.ingest]
        raw = rate(embedder, statements(chosen))
        store = credo.connect(tenant=f"bench_embed_{uuid.uuid4().hex[:8]}", embedder=embedder)
        floor_tenant = f"{store.tenant}_floor"
        try:
            for rel in sorted({r.predicate for r in chosen}):
                store.define_predicate(rel, cardinality="multi")
            t0 = time.perf_counter()
            for i in range(0, len(chosen), args.batch):
                store.add_facts([{"subject": r.subject, "predicate": r.predicate, "object": r.object,
                                  "valid_from": r.valid_from, "valid_to": r.valid_to}
                                 for r in chosen[i:i + args.batch]])
            ingest = len(chosen) / (time.perf_counter() - t0)
            # where the rest goes: the same rows written by the floor with the same vectors given (vector index
            # included), in the same run
            vectors = embedder.embed(statements(chosen))
            floor_write = floor.ingest(store._db, floor_tenant, chosen, args.batch, vectors)
        finally:
            cleanup(store)
            floor.drop(store._db, floor_tenant)
            store.close()
        embed_s, total_s = len(chosen) / raw, len(chosen) / ingest
        print(f"default embedder {type(embedder).__name__}: raw {raw:.1f} texts/s; ingest {ingest:.1f} facts/s "
              f"= {ingest / raw:.0%} of raw (target >= 90 %); load average {os.getloadavg()[0]:.2f}")
        print(f"  of the ingest's {total_s:.2f} s: embedding ≈ {embed_s:.2f} s, the write ≈ {total_s - embed_s:.2f} s; "
              f"the floor writes the same rows with their vectors in {floor_write:.2f} s "
              f"(write / floor write {(total_s - embed_s) / floor_write:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
