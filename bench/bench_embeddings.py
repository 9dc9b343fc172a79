"""Issue 9 benchmark: the embedder's raw throughput (torch vs ONNX Runtime), its quality gate, the driver's
`repr` cost of vector parameters, and ingest with the default embedder as a share of the embedder alone.

    .venv/bin/python bench/bench_embeddings.py [--texts 2000] [--sample 500] [--queries 100] [--ingest 2000]
        [--ingest-rounds 3] [--threads 0 1 2] [--global-index] [--skip-backends]

Texts are real statements as Credo builds them from YAGO11k rows (`"<subject> <predicate> <object>"`, predicate
normalised). Quality gate for a backend: cosine ≥ 0.99 against the torch vectors on `--sample` statements (the
minimum is reported) and the same nearest neighbour (among the sample) for `--queries` question-form queries.
The ingest part (skipped with `--ingest 0`) needs Neo4j (NEO4J_URI …). Each of `--ingest-rounds` interleaved
rounds, on the same `--ingest` YAGO statements and each write in a fresh tenant (deleted afterwards): the raw
embedder's throughput, ingest through the pipelined `import_facts`, the raw embedder again (a share is of the mean
of the two), ingest through plain `add_facts` batches, then the write alone with the vectors given — Credo's
`add_facts` and `bench/floor.py`'s (the same rows and vectors, the tenant's partition label and its own vector
index). `--threads` repeats the rounds per ONNX intra-op thread setting; `--global-index` also times the write with
vectors given with 0001's global `fact_embedding` index re-created (before migration 0010) against without.
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


GLOBAL_INDEX = ("CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON n.embedding "
                "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}")


def _fact_rows(chosen) -> list[dict]:
    return [{"subject": r.subject, "predicate": r.predicate, "object": r.object, "valid_from": r.valid_from,
             "valid_to": r.valid_to} for r in chosen]


def _fresh(db, embedder, chosen, tag: str):
    """A store on a fresh tenant with the rows' predicates defined multi-valued (no conflict rule in the way)."""
    from credo.store import Store

    store = Store(db, tenant=f"bench_embed_{tag}_{uuid.uuid4().hex[:8]}", embedder=embedder, _owns_db=False)
    for rel in sorted({r.predicate for r in chosen}):
        store.define_predicate(rel, cardinality="multi")
    return store


def _drop(store) -> None:
    """Delete a bench tenant's nodes and its partition's vector index (so runs do not pile indexes up)."""
    from credo.graph.search_partition import names

    cleanup(store)
    store._db.run_schema(f"DROP INDEX {names(store.tenant)[1]} IF EXISTS")


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def ingest_round(db, embedder, chosen, batch: int) -> dict[str, float]:
    """One interleaved round on the same statements: raw embedder, the pipelined import, raw again, plain
    add_facts, then the write alone with the vectors given (Credo's and the floor's), each in a fresh tenant."""
    texts, facts = statements(chosen), _fact_rows(chosen)
    out: dict[str, float] = {}
    out["raw_before"] = rate(embedder, texts)
    store = _fresh(db, embedder, chosen, "import")
    reports = []
    out["import"] = len(facts) / _timed(lambda: reports.append(store.import_facts(facts, batch_size=batch)))
    out["waited"] = sum(b.waited_s for b in reports[0].batches)  # the writer idle, waiting for vectors
    out["writing"] = sum(b.write_s for b in reports[0].batches)
    _drop(store)
    out["raw_after"] = rate(embedder, texts)
    store = _fresh(db, embedder, chosen, "plain")
    out["add_facts"] = len(facts) / _timed(
        lambda: [store.add_facts(facts[i:i + batch]) for i in range(0, len(facts), batch)])
    _drop(store)
    vectors = embedder.embed(texts)
    out.update(write_with_vectors(db, embedder, chosen, batch, vectors))
    return out


def write_with_vectors(db, embedder, chosen, batch: int, vectors) -> dict[str, float]:
    """Seconds of Credo's write (add_facts, the vectors given) and of the floor's write of the same rows and vectors."""
    import floor

    from credo.services.import_facts import Prepared

    facts = _fact_rows(chosen)
    given = Prepared(embedder, dict(zip(statements(chosen), vectors)))
    store = _fresh(db, given, chosen, "write")
    credo_s = _timed(lambda: [store.add_facts(facts[i:i + batch]) for i in range(0, len(facts), batch)])
    _drop(store)
    tenant = f"bench_embed_floor_{uuid.uuid4().hex[:8]}"
    try:
        floor_s = floor.ingest(db, tenant, chosen, batch, vectors)
    finally:
        floor.drop(db, tenant)
    return {"credo_write": credo_s, "floor_write": floor_s}


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2


def ingest_rounds(args, rows) -> None:
    """Ingest with the default embedder (ONNX fp32) as a share of its raw throughput on the same texts, interleaved."""
    import credo

    from credo.services.embedder_onnx import OnnxMiniLMEmbedder

    chosen = rows[:args.ingest]
    handle = credo.connect(tenant=f"bench_embed_{uuid.uuid4().hex[:8]}", embedder=None)
    db = handle._db
    try:
        print(f"ingest of {len(chosen)} YAGO facts, batch {args.batch}, the default embedder (ONNX fp32), "
              f"{args.ingest_rounds} interleaved rounds per thread setting")
        for threads, spin in [(t, s) for t in args.threads for s in args.spinning]:
            embedder = OnnxMiniLMEmbedder(threads=threads or None, spinning=spin == "on")
            setting = f"threads {threads or 'default'} spinning {spin}"
            results = []
            for n in range(args.ingest_rounds):
                r = ingest_round(db, embedder, chosen, args.batch)
                raw = (r["raw_before"] + r["raw_after"]) / 2
                r["raw"] = raw
                results.append(r)
                print(f"  {setting} round {n + 1} (load {os.getloadavg()[0]:.1f}): raw "
                      f"{r['raw_before']:.1f} / {r['raw_after']:.1f} texts/s; import_facts {r['import']:.1f} facts/s "
                      f"= {r['import'] / raw:.0%} of raw (writer waited {r['waited']:.1f} s for vectors, wrote {r['writing']:.1f} s); add_facts {r['add_facts']:.1f} = {r['add_facts'] / raw:.0%}; "
                      f"write with vectors given: Credo {r['credo_write']:.2f} s, floor {r['floor_write']:.2f} s "
                      f"({r['credo_write'] / r['floor_write']:.2f}x)", flush=True)
            share = _median([r["import"] / r["raw"] for r in results])
            plain = _median([r["add_facts"] / r["raw"] for r in results])
            ratio = _median([r["credo_write"] / r["floor_write"] for r in results])
            print(f"{setting}: median import_facts {share:.0%} of raw (target >= 90 %: "
                  f"{'met' if share >= 0.9 else 'missed'}), add_facts {plain:.0%} of raw; raw median "
                  f"{_median([r['raw'] for r in results]):.1f} texts/s; write with vectors / floor {ratio:.2f}x",
                  flush=True)
        if args.global_index:
            global_index_rounds(db, chosen, args)
    finally:
        handle.close()
    print(f"load average at end {os.getloadavg()[0]:.2f}")


def global_index_rounds(db, chosen, args) -> None:
    """The write with vectors given, with the global fact_embedding index re-created (before migration 0010) and
    without it (after), alternated; the index is dropped again at the end."""
    from credo.services.embedder_onnx import OnnxMiniLMEmbedder

    embedder = OnnxMiniLMEmbedder()
    vectors = embedder.embed(statements(chosen))
    seen: dict[str, list[dict[str, float]]] = {"with global index": [], "without": []}
    try:
        for n in range(args.ingest_rounds):
            for shape in (("with global index", "without") if n % 2 == 0 else ("without", "with global index")):
                if shape == "with global index":
                    db.run_schema(GLOBAL_INDEX)
                    db.run_schema("CALL db.awaitIndex('fact_embedding', 300)")
                else:
                    db.run_schema("DROP INDEX fact_embedding IF EXISTS")
                seen[shape].append(write_with_vectors(db, embedder, chosen, args.batch, vectors))
    finally:
        db.run_schema("DROP INDEX fact_embedding IF EXISTS")
    for shape, runs in seen.items():
        print(f"write with vectors given, {shape}: Credo {_median([r['credo_write'] for r in runs]):.2f} s, floor "
              f"{_median([r['floor_write'] for r in runs]):.2f} s (medians of {len(runs)}: "
              + ", ".join(f"{r['credo_write']:.2f}/{r['floor_write']:.2f}" for r in runs) + ")", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2000, help="statements for the throughput figures")
    parser.add_argument("--sample", type=int, default=500, help="statements for the cosine gate")
    parser.add_argument("--queries", type=int, default=100, help="queries for the nearest-neighbour gate")
    parser.add_argument("--ingest", type=int, default=2000, help="rows ingested with the default embedder (0: skip)")
    parser.add_argument("--rounds", type=int, default=3, help="alternated torch / onnx rounds for the speed ratio")
    parser.add_argument("--batch", type=int, default=1000, help="facts per batch (add_facts call) in the ingest part")
    parser.add_argument("--ingest-rounds", type=int, default=3, help="interleaved rounds of raw / import / add_facts")
    parser.add_argument("--threads", type=int, nargs="*", default=[0],
                        help="ONNX intra-op threads of the ingest's embedder (0: ONNX Runtime's default); one set of "
                             "rounds per value")
    parser.add_argument("--spinning", nargs="*", default=["off"], choices=["on", "off"],
                        help="ONNX intra-op threads spin while idle (on: ONNX Runtime's own default) or sleep (off: "
                             "Credo's default); one set of rounds per value and thread setting")
    parser.add_argument("--global-index", action="store_true",
                        help="also time the write with vectors given with the global fact_embedding index re-created "
                             "(the shape before migration 0010) against without, alternated")
    parser.add_argument("--skip-backends", action="store_true", help="only the ingest part (no torch / int8 tables)")
    args = parser.parse_args(argv)
    from credo.services.embedder_onnx import OnnxMiniLMEmbedder
    from credo.services.embeddings import MiniLMEmbedder

    rows, _ = load_yago(YAGO)
    rng = random.Random(9)
    texts = statements(rng.sample(rows, args.texts))
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cpus, {len(texts)} statements "
          f"(mean {sum(map(len, texts)) / len(texts):.0f} chars)")

    if args.skip_backends:
        if args.ingest:
            ingest_rounds(args, rows)
        return 0
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
        ingest_rounds(args, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
