"""Forgetting benchmark (issue 12): forget + verify p50/p95 per item on a store of N facts, and tenant-wide forget
time at several sizes (linear growth?), with the floor measured in the same run.

    .venv/bin/python bench/bench_forget.py --sizes 10000 100000 --tenant-sizes 2000 5000 10000

The Neo4j at NEO4J_URI when set, else an own instance (CREDO_INSTANCE=forgetbench) stopped when done. The first
`--ingest` facts (default 10,000) go through `add_facts` with a deterministic 384-dim hash embedding (so the vector
index and probe are exercised without the model's cost); the rest of a larger size is bulk-created in Cypher with the
same Fact node shape and random unit vectors (`--ingest` higher to write them all through add_facts). The per-item
samples are drawn from every fact of the store. The floor: the simplest correct Cypher for one forget + verify (one
auto-commit write removing a fact's content properties, one read probing the tenant's own full-text and vector
indexes and the nodes). Figures go to stdout, to be recorded in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo  # noqa: E402
from credo.cypher import Query  # noqa: E402
from credo.cypher import expand  # noqa: E402
from credo.ops.provision import LocalNeo4j  # noqa: E402
from credo.graph.core.vectors import Vector  # noqa: E402
from credo.settings import Settings  # noqa: E402
from server_cpu import run_once  # noqa: E402

BULK = Query("bulk_facts", expand("""
UNWIND range($start, $start + $n - 1) AS i
CALL (i) {
  WITH i, 'P person ' + i + ' lives in city ' + (i % 97) + ' (record ' + i + ')' AS text
  CREATE (f:Fact {tenant: $tenant, fact_id: 'f_bulk' + $run + '_' + i, version_id: 'v_bulk' + $run + '_' + i,
                  subject_id: 'e_bulk' + $run + '_' + i, subject_name: 'P person ' + i, predicate: 'lives_in',
                  object_type: 'string', object_value: 'P city ' + (i % 97), object_name: 'P city ' + (i % 97),
                  statement: text, scope_key: '{}', kind: 'semantic', evidence: 'stated', epistemic: 'confirmed',
                  state: 'active', valid_from: datetime('2020-01-01T00:00:00Z'), valid_from_precision: 'day',
                  known_from: datetime('2024-01-01T00:00:00Z'), verified_at: datetime('2024-01-01T00:00:00Z')})
  WITH f, [k IN range(1, 384) | rand() - 0.5] AS v
  WITH f, v, sqrt(reduce(s = 0.0, x IN v | s + x * x)) AS norm
  SET f.embedding = [x IN v | x / norm]
  SET f += @search_keys(f, null)
} IN TRANSACTIONS OF 5000 ROWS
"""), frozenset({"n", "start", "tenant", "run"}))

FLOOR_FORGET = Query("floor_forget", """
MATCH (f:Fact) WHERE f.fact_id = $fact_id AND f.tenant = $tenant
REMOVE f.statement, f.quote, f.embedding, f.subject_name, f.object_name
SET f.object_value = '', f.forgotten_at = datetime()
""", frozenset({"fact_id", "tenant"}))

FLOOR_VERIFY = Query("floor_verify", """
CYPHER 25
CALL () {
  MATCH (f:Fact) WHERE f.fact_id = $fact_id AND f.tenant = $tenant AND f.statement IS NOT NULL RETURN f.version_id AS v
  UNION
  CALL db.index.fulltext.queryNodes('fact_text', $phrase) YIELD node WITH node WHERE node.tenant = $tenant
  RETURN node.version_id AS v
  UNION
  MATCH (node:Fact) SEARCH node IN (VECTOR INDEX fact_search FOR $vector WHERE node.tenant = $tenant LIMIT 20)
    SCORE AS score
  WITH node, score WHERE score >= 0.9999 RETURN node.version_id AS v
}
RETURN count(v) AS residue
""", frozenset({"fact_id", "tenant", "phrase", "vector"}))


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


def per_item(store: credo.Store, ids: list[str], samples: int, rng: random.Random, warmup: int = 0) -> dict[str, float]:
    forget_ms, verify_ms, complete = [], [], 0
    picked = rng.sample(ids, samples + warmup)
    for fid in picked:
        ids.remove(fid)
    first = []
    for fid in picked[:warmup]:  # the server plans each statement once: those first calls are timed apart
        t0 = time.perf_counter()
        store.forget(fid, reason="bench", actor="bench")
        store.verify_forgotten(fid)
        first.append((time.perf_counter() - t0) * 1000)
    if first:
        print(f"  warm-up ({warmup} forgets + verifies, not in the figures): first {first[0]:.1f} ms, "
              f"max {max(first):.1f} ms", flush=True)
    for fid in picked[warmup:]:
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
    return {"p50": pct(both, 50), "p95": pct(both, 95)}


def floor_item(store: credo.Store, ids: list[str], samples: int, rng: random.Random, warmup: int = 0) -> dict[str, float]:
    """The floor in the same store: one write removing the content, one read probing nodes and both indexes."""
    db, took = store._db, []
    picked = rng.sample(ids, samples + warmup)
    for fid in picked:
        ids.remove(fid)
    for i, fid in enumerate(picked):
        t0 = time.perf_counter()
        db.query(FLOOR_FORGET, write=True, fact_id=fid, tenant=store.tenant)
        db.query(FLOOR_VERIFY, fact_id=fid, tenant=store.tenant, phrase='"forgotten floor probe"',
                 vector=Vector(HashEmbedder().embed([fid])[0]))
        if i >= warmup:
            took.append((time.perf_counter() - t0) * 1000)
    print(f"  floor forget+verify p50 {pct(took, 50):.1f} ms p95 {pct(took, 95):.1f} (n={samples})", flush=True)
    return {"p50": pct(took, 50), "p95": pct(took, 95)}


def bulk(store: credo.Store, start: int, n: int) -> list[str]:
    run = uuid.uuid4().hex[:6]
    began = time.monotonic()
    run_once(store._db, BULK, n=n, start=start, tenant=store.tenant, run=run)
    print(f"  bulk-created {n:,} facts (same Fact node shape, random unit vectors) in {time.monotonic() - began:.0f} s",
          flush=True)
    return [f"f_bulk{run}_{i}" for i in range(start, start + n)]


def tenant_wide(db_store: credo.Store, n: int) -> float:
    store = db_store.for_tenant(f"bench_tenant_{n}_{uuid.uuid4().hex[:6]}")
    fill(store, "T", n)
    began = time.monotonic()

    def progress(job) -> None:
        if job.done % 2_000 == 0 or job.phase != "facts":
            print(f"    {job.phase}: {job.done:,} done, {time.monotonic() - began:.1f} s", flush=True)

    job = store.forget_tenant(reason="bench", actor="bench", batch_size=500, progress=progress)
    took = time.monotonic() - began
    print(f"  tenant-wide forget of {n:,} facts: {took:.1f} s ({n / took:.0f} facts/s, {took / n * 1000:.2f} ms/fact), "
          f"done={job.done}, complete={job.report.complete}", flush=True)
    return took


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--ingest", type=int, default=10_000, help="facts written through add_facts (rest bulk)")
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=0, help="untimed first forgets (query planning), shown apart")
    parser.add_argument("--tenant-sizes", type=int, nargs="*", default=[2_000, 5_000, 10_000])
    args = parser.parse_args()
    own = not os.environ.get("NEO4J_URI")
    settings = (Settings(neo4j_uri=None, use_docker=False, instance=os.environ.get("CREDO_INSTANCE", "forgetbench"))
                if own else Settings())
    local = LocalNeo4j(settings, progress=print) if own else None
    if local:
        local.start()
    try:
        store = credo.connect(f"bench_forget_{uuid.uuid4().hex[:6]}", settings, embedder=HashEmbedder(), start=False)
        print(f"load average at start: {os.getloadavg()}")
        rng = random.Random(7)
        have = 0
        ids: list[str] = []
        for size in sorted(args.sizes):
            print(f"per-item forget + verify on a {size:,}-fact store (load {os.getloadavg()[0]:.1f}):", flush=True)
            ingest = max(0, min(size, args.ingest) - have)
            ids += fill(store, "P", ingest, offset=have) if ingest else []
            ids += bulk(store, have + ingest, size - have - ingest) if size > have + ingest else []
            have = size
            floor = floor_item(store, ids, args.samples, rng, args.warmup)
            got = per_item(store, ids, args.samples, rng, args.warmup)
            print(f"  ratio to floor: p50 {got['p50'] / floor['p50']:.1f}×, p95 {got['p95'] / floor['p95']:.1f}×; "
                  f"target p50/p95 ≤ 100 ms: {'met' if got['p95'] <= 100 else 'missed'}", flush=True)
        times = {n: tenant_wide(store, n) for n in sorted(args.tenant_sizes)}
        if times:  # `--tenant-sizes` with no sizes skips the tenant-wide part
            base = min(times)
            print("linearity (time per 1,000 facts): "
                  + ", ".join(f"{n:,}: {times[n] / n * 1000:.2f} s" for n in times))
            print(f"load average at end: {os.getloadavg()}; ratio {max(times)}/{base}: "
                  f"{times[max(times)] / times[base]:.2f}× time for {max(times) / base:.1f}× facts")
        store.close()
    finally:
        if local:
            local.stop(timeout=60)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
