"""Issue 9 benchmark: the embedder's raw throughput (torch vs ONNX Runtime), its quality gate, the driver's
`repr` cost of vector parameters, and ingest with the default embedder as a share of the embedder alone.

    .venv/bin/python bench/bench_embeddings.py [--texts 2000] [--sample 500] [--queries 100] [--ingest 5000]
        [--batch 500] [--ingest-rounds 3] [--threads 0 1 2] [--spinning off on] [--plain] [--skip-backends]

Texts are real statements as Credo builds them from YAGO11k rows (`"<subject> <predicate> <object>"`, predicate
normalised). Quality gate for a backend: cosine ≥ 0.99 against the torch vectors on `--sample` statements (the
minimum is reported) and the same nearest neighbour (among the sample) for `--queries` question-form queries.
The ingest part (skipped with `--ingest 0`) needs Neo4j (NEO4J_URI …). Each of `--ingest-rounds` interleaved
rounds, on the same `--ingest` YAGO statements (default 5,000 in batches of 500, so the pipeline's steady state is
measured over 10 batches) and each write in a fresh tenant (deleted afterwards): the raw embedder's throughput and
CPU seconds, ingest through the pipelined `import_facts`, the raw embedder again (a share is of the mean of the
two), the floor's own pipelined import (`bench/floor.py`: the same pipeline, rows, indexes), plain `add_facts`
batches with `--plain`, then the write alone with the vectors given — Credo's `add_facts` and the floor's, each
tenant's partition label with its own vector and full-text index made before — with wall and CPU seconds (client,
and the Neo4j server's when it runs on this machine). On a machine whose cores the embedder fills, an overlapped
write can only take CPU from it, so embedding CPU / (embedding CPU + write CPU) is printed as the share's ceiling.
The same pipeline and write are measured writing nothing but the vectors into a vector index (`floor.vectors_only`):
what is left of the embedder once a write indexes the vectors and nothing else of a version.
`--threads` / `--spinning` repeat the rounds per ONNX intra-op setting.
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

from bench_bitemporal import YAGO, load_yago  # noqa: E402
from server_cpu import Cpu  # noqa: E402

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
    from credo.graph.core.vectors import Vector

    rng = random.Random(9)
    plain = [{"props": {"embedding": [rng.uniform(-1, 1) for _ in range(384)]}} for _ in range(vectors)]
    wrapped = [{"props": {"embedding": Vector(p["props"]["embedding"])}} for p in plain]
    out = []
    for rows in (plain, wrapped):
        t0 = time.perf_counter()
        " ".join(map(repr, ("UNWIND $rows AS row ...", {"rows": rows}, {})))  # what _bolt5.run() evaluates
        out.append(time.perf_counter() - t0)
    return out[0], out[1]


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
    """Delete a bench tenant's nodes and free its partition's slot (so runs do not use slots up)."""
    import floor

    floor.drop(store._db, store.tenant)  # waits for a partition build still running in the background


def _cpu_sum(t: dict[str, float | None]) -> float | None:
    return None if t["server"] is None else t["client"] + t["server"]


def ingest_round(db, embedder, chosen, batch: int, cpu: Cpu, plain: bool) -> dict[str, float | None]:
    """One interleaved round on the same statements: raw embedder, Credo's pipelined import, raw again, the floor's
    pipelined import (same pipeline and indexes), optionally plain add_facts, then the write alone with the vectors
    given (Credo's and the floor's, the tenant's partition indexes made before), each in a fresh tenant."""
    import floor

    texts, facts = statements(chosen), _fact_rows(chosen)
    out: dict[str, float | None] = {}
    embedder.embed(texts[:32])
    vectors: list[list[float]] = []
    raw = cpu.timed(lambda: vectors.extend(embedder.embed(texts)))  # kept for the write with vectors given
    out["raw_before"], out["embed_cpu"] = len(texts) / raw["wall"], raw["client"]
    store = _fresh(db, embedder, chosen, "import")
    reports = []
    run = cpu.timed(lambda: reports.append(store.import_facts(facts, batch_size=batch)))
    out["import"] = len(facts) / run["wall"]
    out["import_cpu"] = _cpu_sum(run)
    out["waited"] = sum(b.waited_s for b in reports[0].batches)  # the writer idle, waiting for vectors
    out["writing"] = sum(b.write_s for b in reports[0].batches)
    _drop(store)
    out["raw_after"] = rate(embedder, texts)
    tenant = f"bench_embed_floorpipe_{uuid.uuid4().hex[:8]}"
    try:
        seconds, waited = floor.pipelined(db, tenant, chosen, batch, embedder.embed)
    finally:
        floor.drop(db, tenant)
    out["floor_import"], out["floor_waited"] = len(facts) / seconds, waited
    tenant = f"bench_embed_vecpipe_{uuid.uuid4().hex[:8]}"
    try:  # the same pipeline writing nothing but the vectors: the most any store could reach here
        seconds, _waited = floor.pipelined(db, tenant, chosen, batch, embedder.embed, vectors_alone=True)
    finally:
        floor.drop(db, tenant)
    out["vectors_import"] = len(facts) / seconds
    if plain:
        store = _fresh(db, embedder, chosen, "plain")
        out["add_facts"] = len(facts) / _timed(
            lambda: [store.add_facts(facts[i:i + batch]) for i in range(0, len(facts), batch)])
        _drop(store)
    out.update(write_with_vectors(db, embedder, chosen, batch, vectors, cpu))
    return out


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def write_with_vectors(db, embedder, chosen, batch: int, vectors, cpu: Cpu) -> dict[str, float | None]:
    """Wall and CPU seconds of Credo's write (add_facts, the vectors given) and of the floor's write of the same rows
    and vectors, both into the one filtered vector index `fact_search` and `fact_text`."""
    import floor

    from credo.services.facts.imports import Prepared

    facts = _fact_rows(chosen)
    given = Prepared(embedder, dict(zip(statements(chosen), vectors)))
    store = _fresh(db, given, chosen, "write")
    credo = cpu.timed(lambda: [store.add_facts(facts[i:i + batch]) for i in range(0, len(facts), batch)])
    _drop(store)
    tenant = f"bench_embed_floor_{uuid.uuid4().hex[:8]}"

    def floor_write() -> None:
        with db._driver.session(database=db.database) as session:
            for i in range(0, len(chosen), batch):
                floor.ingest_batch(session, tenant, chosen[i:i + batch], vectors[i:i + batch])

    try:
        base = cpu.timed(floor_write)
    finally:
        floor.drop(db, tenant)
    tenant = f"bench_embed_vec_{uuid.uuid4().hex[:8]}"
    label = floor.own_index(db, tenant)

    def vectors_write() -> None:  # nothing but the vectors, into a vector index: the least a write can cost
        with db._driver.session(database=db.database) as session:
            for i in range(0, len(vectors), batch):
                floor.vectors_only(session, tenant, label, vectors[i:i + batch])

    try:
        alone = cpu.timed(vectors_write)
    finally:
        floor.drop(db, tenant)
    return {"credo_write": credo["wall"], "floor_write": base["wall"], "vectors_write_cpu": _cpu_sum(alone),
            "vectors_write": alone["wall"], "credo_write_cpu": _cpu_sum(credo),
            "floor_write_cpu": _cpu_sum(base), "credo_write_server": credo["server"],
            "floor_write_server": base["server"], "credo_write_client": credo["client"],
            "floor_write_client": base["client"]}


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2


def _f(value: float | None, spec: str = ".2f") -> str:
    return "n/a" if value is None else format(value, spec)


def ingest_rounds(args, rows) -> None:
    """Ingest with the default embedder (ONNX fp32) as a share of its raw throughput on the same texts, interleaved,
    with the floor's pipelined import and the CPU each side spends."""
    import credo

    from credo.services.adapters.embedder_onnx import OnnxMiniLMEmbedder

    chosen = rows[:args.ingest]
    handle = credo.connect(tenant=f"bench_embed_{uuid.uuid4().hex[:8]}", embedder=None)
    db = handle._db
    cpu = Cpu(db.uri)
    try:
        print(f"ingest of {len(chosen)} YAGO facts, batch {args.batch} ({-(-len(chosen) // args.batch)} batches), the "
              f"default embedder (ONNX fp32), {args.ingest_rounds} interleaved rounds per thread setting; Neo4j server "
              f"pid {cpu.server_pid or 'not visible (server CPU n/a)'}")
        for threads, spin in [(t, s) for t in args.threads for s in args.spinning]:
            embedder = OnnxMiniLMEmbedder(threads=threads or None, spinning=spin == "on")
            setting = f"threads {threads or 'default'} spinning {spin}"
            results = []
            for n in range(args.ingest_rounds):
                r = ingest_round(db, embedder, chosen, args.batch, cpu, args.plain)
                raw = (r["raw_before"] + r["raw_after"]) / 2
                r["raw"] = raw
                # on a machine whose cores the embedder fills, an overlapped write can only take CPU from it: the
                # best share is the embedding's CPU over the embedding's plus the write's
                for side in ("credo", "floor", "vectors"):
                    w = r[f"{side}_write_cpu"]
                    r[f"{side}_ceiling"] = None if w is None else r["embed_cpu"] / (r["embed_cpu"] + w)
                results.append(r)
                plain = f"; add_facts {r['add_facts'] / raw:.0%} of raw" if args.plain else ""
                print(f"  {setting} round {n + 1} (load {os.getloadavg()[0]:.1f}): raw "
                      f"{r['raw_before']:.1f} / {r['raw_after']:.1f} texts/s ({r['embed_cpu']:.1f} CPU s); "
                      f"import_facts {r['import']:.1f} facts/s = {r['import'] / raw:.0%} of raw (writer waited "
                      f"{r['waited']:.1f} s for vectors, wrote {r['writing']:.1f} s); floor's pipelined import "
                      f"{r['floor_import'] / raw:.0%} of raw (waited {r['floor_waited']:.1f} s){plain}; write with "
                      f"vectors given: Credo {r['credo_write']:.2f} s wall / {_f(r['credo_write_cpu'])} CPU s "
                      f"(server {_f(r['credo_write_server'])}, client {r['credo_write_client']:.2f}), floor "
                      f"{r['floor_write']:.2f} s / {_f(r['floor_write_cpu'])} CPU s (server "
                      f"{_f(r['floor_write_server'])}, client {r['floor_write_client']:.2f}) -> "
                      f"{r['credo_write'] / r['floor_write']:.2f}x wall; CPU-bound ceiling of the share: Credo "
                      f"{_f(r['credo_ceiling'], '.0%')}, floor {_f(r['floor_ceiling'], '.0%')}; the vectors alone: "
                      f"pipelined {r['vectors_import'] / raw:.0%} of raw, write {r['vectors_write']:.2f} s / "
                      f"{_f(r['vectors_write_cpu'])} CPU s, ceiling {_f(r['vectors_ceiling'], '.0%')}", flush=True)
            share = _median([r["import"] / r["raw"] for r in results])
            base = _median([r["floor_import"] / r["raw"] for r in results])
            ratio = _median([r["credo_write"] / r["floor_write"] for r in results])
            cpus = [r["credo_write_cpu"] / r["floor_write_cpu"] for r in results if r["floor_write_cpu"]]
            ceilings = [r["credo_ceiling"] for r in results if r["credo_ceiling"] is not None]
            least = [r["vectors_ceiling"] for r in results if r["vectors_ceiling"] is not None]
            floors = [r["floor_ceiling"] for r in results if r["floor_ceiling"] is not None]
            plain = (f", add_facts {_median([r['add_facts'] / r['raw'] for r in results]):.0%} of raw"
                     if args.plain else "")
            print(f"{setting}: median import_facts {share:.0%} of raw (target >= 90 %: "
                  f"{'met' if share >= 0.9 else 'missed'}), the floor's pipelined import {base:.0%}{plain}; raw median "
                  f"{_median([r['raw'] for r in results]):.1f} texts/s; write with vectors / floor {ratio:.2f}x wall, "
                  f"{_f(_median(cpus) if cpus else None)}x CPU; CPU-bound ceiling of Credo's share "
                  f"{_f(_median(ceilings) if ceilings else None, '.0%')}, the floor's "
                  f"{_f(_median(floors) if floors else None, '.0%')}; writing the vectors alone (a vector index and "
                  f"nothing else of a version): pipelined {_median([r['vectors_import'] / r['raw'] for r in results]):.0%}"
                  f" of raw, CPU-bound ceiling {_f(_median(least) if least else None, '.0%')}", flush=True)
    finally:
        handle.close()
    print(f"load average at end {os.getloadavg()[0]:.2f}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2000, help="statements for the throughput figures")
    parser.add_argument("--sample", type=int, default=500, help="statements for the cosine gate")
    parser.add_argument("--queries", type=int, default=100, help="queries for the nearest-neighbour gate")
    parser.add_argument("--ingest", type=int, default=5000, help="rows ingested with the default embedder (0: skip)")
    parser.add_argument("--rounds", type=int, default=3, help="alternated torch / onnx rounds for the speed ratio")
    parser.add_argument("--batch", type=int, default=500, help="facts per batch (add_facts call) in the ingest part")
    parser.add_argument("--ingest-rounds", type=int, default=3, help="interleaved rounds of raw / import / add_facts")
    parser.add_argument("--threads", type=int, nargs="*", default=[0],
                        help="ONNX intra-op threads of the ingest's embedder (0: ONNX Runtime's default); one set of "
                             "rounds per value")
    parser.add_argument("--spinning", nargs="*", default=["off"], choices=["on", "off"],
                        help="ONNX intra-op threads spin while idle (on: ONNX Runtime's own default) or sleep (off: "
                             "Credo's default); one set of rounds per value and thread setting")
    parser.add_argument("--plain", action="store_true",
                        help="also ingest through plain add_facts batches (embedding and writing in turn)")
    parser.add_argument("--skip-backends", action="store_true", help="only the ingest part (no torch / int8 tables)")
    args = parser.parse_args(argv)
    from credo.services.adapters.embedder_onnx import OnnxMiniLMEmbedder
    from credo.services.adapters.embeddings import MiniLMEmbedder

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
