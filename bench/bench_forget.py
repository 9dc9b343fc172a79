"""Forgetting benchmark (issue 12): forget + verify p50/p95 per item on a store of N facts, and tenant-wide forget
time at several sizes (linear growth?). Own Neo4j instance (CREDO_INSTANCE=forgetbench), stopped when done.

    .venv/bin/python bench/bench_forget.py --sizes 10000 30000 --tenant-sizes 2000 5000 10000

Facts carry a deterministic 384-dim hash embedding (so the vector index and the vector probe are exercised without
the model's cost); figures go to stdout, to be recorded in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import statistics
import time
import uuid

import credo
from credo.graph.provision import LocalNeo4j
from credo.settings import Settings


class HashEmbedder:
    """Deterministic unit vectors from a hash of the text."""

    def embed(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            rng = random.Random(hashlib.sha256(text.encode()).digest())
            raw = [rng.uniform(-1.0, 1.0) for _ in range(384)]
            norm = math.sqrt(sum(x * x for x in raw))
            out.append([x / norm for x in raw])
        return out


def rows(tag: str, start: int, n: int) -> list[dict]:
    return [{"subject": f"{tag} person {i}", "predicate": "lives_in", "object": f"{tag} city {i % 97}",
             "valid_from": "2020-01-01", "statement": f"{tag} person {i} lives in city {i % 97} (record {i})"}
            for i in range(start, start + n)]


def fill(store: credo.Store, tag: str, n: int, batch: int = 2_000, offset: int = 0) -> list[str]:
    ids: list[str] = []
    began = time.monotonic()
    for start in range(offset, offset + n, batch):
        ids += [f.fact_id for f in store.add_facts(rows(tag, start, min(batch, offset + n - start)))]
    print(f"  filled {n:,} facts in {time.monotonic() - began:.0f} s", flush=True)
    return ids


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def per_item(store: credo.Store, ids: list[str], samples: int) -> None:
    rng = random.Random(7)
    forget_ms, verify_ms, complete = [], [], 0
    picked = rng.sample(ids, samples)
    for fid in picked:
        ids.remove(fid)
    for fid in picked:
        t0 = time.perf_counter()
        result = store.forget(fid, reason="bench", actor="bench")
        t1 = time.perf_counter()
        report = store.verify_forgotten(fid)
        t2 = time.perf_counter()
        forget_ms.append((t1 - t0) * 1000)
        verify_ms.append((t2 - t1) * 1000)
        complete += result.report.complete and report.complete
    both = [a + b for a, b in zip(forget_ms, verify_ms)]
    print(f"  forget p50 {pct(forget_ms, 50):.1f} ms p95 {pct(forget_ms, 95):.1f} | verify p50 {pct(verify_ms, 50):.1f} "
          f"p95 {pct(verify_ms, 95):.1f} | forget+verify p50 {pct(both, 50):.1f} p95 {pct(both, 95):.1f} ms "
          f"(n={samples}, complete {complete}/{samples})", flush=True)


def tenant_wide(db_store: credo.Store, n: int) -> float:
    store = db_store.for_tenant(f"bench_tenant_{n}_{uuid.uuid4().hex[:6]}")
    fill(store, "T", n)
    began = time.monotonic()
    job = store.forget_tenant(reason="bench", actor="bench", batch_size=500)
    took = time.monotonic() - began
    print(f"  tenant-wide forget of {n:,} facts: {took:.1f} s ({n / took:.0f} facts/s), done={job.done}, "
          f"complete={job.report.complete}", flush=True)
    return took


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 30_000])
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--tenant-sizes", type=int, nargs="*", default=[2_000, 5_000, 10_000])
    args = parser.parse_args()
    settings = Settings(neo4j_uri=None, use_docker=False, instance=os.environ.get("CREDO_INSTANCE", "forgetbench"))
    local = LocalNeo4j(settings, progress=print)
    local.start()
    try:
        store = credo.connect(f"bench_forget_{uuid.uuid4().hex[:6]}", settings, embedder=HashEmbedder(), start=False)
        print(f"load average at start: {os.getloadavg()}")
        have = 0
        ids: list[str] = []
        for size in sorted(args.sizes):
            print(f"per-item forget + verify on a {size:,}-fact store:", flush=True)
            ids += fill(store, "P", size - have, offset=have) if size > have else []
            have = size
            per_item(store, ids, args.samples)
        times = {n: tenant_wide(store, n) for n in sorted(args.tenant_sizes)}
        base = min(times)
        print("linearity (time per 1,000 facts): " + ", ".join(f"{n:,}: {times[n] / n * 1000:.2f} s" for n in times))
        print(f"load average at end: {os.getloadavg()}; ratio {max(times)}/{base}: "
              f"{times[max(times)] / times[base]:.2f}× time for {max(times) / base:.1f}× facts")
        store.close()
    finally:
        local.stop(timeout=60)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
