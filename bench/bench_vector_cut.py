"""Issue 25: how many candidates the vector path's first cut needs, now that the index filters inside its search.

    .venv/bin/python bench/bench_vector_cut.py [--yago 15000] [--small 1000] [--queries 150] [--cuts 10 20 40 80]
                                               [--tenant-prefix NAME --keep]

The search's first vector cut (graph/recall/search.py FIRST_CUT) was set when the index could not filter: history
and other tenants took places of its top k, so k had to be large. With the tenant, known and valid intervals and
the clearance rank filtered inside the index, what k buys is the HNSW beam (Neo4j's top k also sets how wide the
graph is searched) and room for the few versions the filter after it drops (state, kind, scope). For each question
this measures, on tenants written through `add_facts` with real embeddings (YAGO11k's first --yago rows, asked
"<relation> <object>"; --small synthetic facts from bench_search.py, asked its questions):
- recall@10 of a filtered top-k SEARCH (ids) against the exact top 10 by cosine over the same filtered versions,
  and whether its top 10 equals the widest cut's;
- the SEARCH's p50 per k, the cuts interleaved question by question;
- Credo's search with each first cut of at least 40 (a path's cut is never below twice its pool, 20 at `limit` 10):
  hits identical to the widest cut's (kind, id, version, score, each path's rank),
  how many searches had to widen (a second vector query), and its p50.
Uses NEO4J_URI (an instance of its own). Tenants are deleted at the end unless --keep; with --tenant-prefix an
existing pair is reused.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import credo  # noqa: E402
from bench_search import DELETE, INDEX_FILTER, distinct, ingest, percentiles, questions, rows, yago_rows  # noqa: E402
from credo.cypher import Query  # noqa: E402
from credo.graph.core.records import FAR_FUTURE  # noqa: E402
from credo.graph.core.vectors import Listed  # noqa: E402
from credo.graph.recall import search as search_repo  # noqa: E402
from credo.schema.search import epoch_ms  # noqa: E402
from credo.services.adapters.embeddings import default_embedder  # noqa: E402

TOP_K = Query("read_top_k", "CYPHER 25 MATCH (f:Fact) SEARCH f IN (VECTOR INDEX fact_search FOR $vector WHERE "
              + INDEX_FILTER + " LIMIT $k) SCORE AS score RETURN f.version_id AS id, score",
              frozenset({"vector", "tenant", "known", "valid", "k"}))
COUNT = Query("count_tenant_facts", "MATCH (f:Fact) WHERE f.tenant = $tenant RETURN count(f) AS n",
              frozenset({"tenant"}))
ALL_VECTORS = Query("read_filtered_vectors", "CYPHER 25 MATCH (f:Fact) WHERE " + INDEX_FILTER
                    + " RETURN f.version_id AS id, f.embedding AS v", frozenset({"tenant", "known", "valid"}))


def exact(db, tenant: str, known: int, valid: int) -> tuple[list[str], np.ndarray]:
    """The ids and unit vectors of every version the index's filter admits for the tenant now."""
    got = db.read(lambda tx: tx.rows(ALL_VECTORS, tenant=tenant, known=known, valid=valid))
    ids = [r["id"] for r in got]
    m = np.array([list(r["v"]) for r in got], dtype=np.float32)
    return ids, m / np.linalg.norm(m, axis=1, keepdims=True)


def top_k(db, vector: list[float], tenant: str, known: int, valid: int, k: int) -> tuple[list[str], float]:
    """The ids of a filtered top-k SEARCH, best first (ties by id), and its wall time in ms."""
    t = time.perf_counter()
    got = db.read(lambda tx: tx.rows(TOP_K, vector=Listed(vector), tenant=tenant, known=known, valid=valid, k=k))
    ms = (time.perf_counter() - t) * 1000
    return [r["id"] for r in sorted(got, key=lambda r: (-r["score"], r["id"]))], ms


def empty(store: credo.Store) -> bool:
    """Whether the tenant holds no fact yet (a --tenant-prefix pair is written once)."""
    return store._db.read(lambda tx: tx.rows(COUNT, tenant=store.tenant))[0]["n"] == 0


def hits_key(found) -> list[tuple]:
    """Everything a hit says, as comparable tuples."""
    return [(h.kind, h.id, h.version_id, round(h.score, 9),
             tuple(sorted((p, s.rank) for p, s in h.paths.items()))) for h in found.hits]


def measure(store: credo.Store, qs: list[str], cuts: list[int], embedder) -> None:
    """Print recall, equality and p50 per cut for one tenant."""
    db = store._db
    known = epoch_ms(FAR_FUTURE)
    valid = epoch_ms(datetime.now(timezone.utc))
    ids, matrix = exact(db, store.tenant, known, valid)
    widest = max(cuts)
    recall = {k: [] for k in cuts}
    same = {k: 0 for k in cuts}
    ms = {k: [] for k in cuts}
    for i, q in enumerate(qs):
        v = embedder.embed([q])[0]
        truth = {ids[j] for j in np.argsort(-(matrix @ np.asarray(v, dtype=np.float32)))[:10]}
        order = cuts[i % len(cuts):] + cuts[:i % len(cuts)]  # interleaved: no cut always first
        tops = {}
        for k in order:
            got, took = top_k(db, v, store.tenant, known, valid, k)
            tops[k] = got[:10]
            ms[k].append(took)
        for k in cuts:
            recall[k].append(len(truth & set(tops[k])) / min(10, len(ids)))
            same[k] += tops[k] == tops[widest]
    print(f"  {store.tenant}: {len(ids)} filtered versions, {len(qs)} questions", flush=True)
    for k in cuts:
        print(f"    SEARCH top {k:>3}: recall@10 {np.mean(recall[k]):.4f} (min {min(recall[k]):.1f}), top 10 = top "
              f"{widest}'s for {same[k]}/{len(qs)}, p50 {percentiles(ms[k])[0]:.2f} ms", flush=True)
    # Credo's search with each first cut it can take: at `limit` 10 a path's cut is at least twice its pool of 20
    asked = [k for k in cuts if k >= 40] + ["again"]  # the widest asked again at the end: how far its answers repeat
    answers, widened, took = {}, {k: 0 for k in asked}, {k: [] for k in asked}
    real_wider, tree_cut = search_repo.wider, search_repo.FIRST_CUT["vector"]
    for k in asked:
        search_repo.FIRST_CUT["vector"] = widest if k == "again" else k

        def counting(cut, visible, need, k=k):
            widened[k] += 1
            return real_wider(cut, visible, need)

        search_repo.wider = counting
        try:
            for q in qs[:10]:
                store.search(q)  # warm-up (plans for this cut)
            widened[k] = 0
            answers[k] = []
            for q in qs:
                t = time.perf_counter()
                found = store.search(q)
                took[k].append((time.perf_counter() - t) * 1000)
                answers[k].append(hits_key(found))
        finally:
            search_repo.wider = real_wider
            search_repo.FIRST_CUT["vector"] = tree_cut
    for k in asked:
        equal = sum(a == b for a, b in zip(answers[k], answers[widest]))
        print(f"    search, first vector cut {k:>5}: hits = cut {widest}'s for {equal}/{len(qs)}, widened "
              f"{widened[k]}, p50 {percentiles(took[k])[0]:.2f} ms", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yago", type=int, default=15_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--cuts", type=int, nargs="+", default=[10, 20, 40, 80])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--tenant-prefix", default=None)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    cuts = sorted(args.cuts)
    prefix = args.tenant_prefix or f"bench-cut-{os.getpid()}"
    print(f"{os.uname().nodename}, {os.cpu_count()} cores, load {os.getloadavg()}", flush=True)
    embedder = default_embedder()
    with credo.connect(tenant=f"{prefix}-small", start=False) as small:
        yago = small.for_tenant(f"{prefix}-yago")
        try:
            rng = random.Random(args.seed)
            if args.small:
                data = rows(rng, args.small)  # drawn either way, so a reused tenant is asked the same questions
                if empty(small):
                    print(f"ingested {args.small} facts in {ingest(small, data):.1f} s", flush=True)
                qs = distinct(lambda: questions(rng, 1)[0], args.queries)
                measure(small, qs, cuts, embedder)
            if args.yago:
                data, relations, loaded = yago_rows(args.yago)
                if empty(yago):
                    for rel in relations:
                        yago.define_predicate(rel, cardinality="multi")
                    print(f"ingested {len(data)} YAGO11k facts in {ingest(yago, data):.1f} s", flush=True)
                yrng = random.Random(args.seed)
                yq = distinct(lambda: (lambda r: f"{r.predicate} {r.object}")(yrng.choice(loaded)), args.queries)
                measure(yago, yq, cuts, embedder)
        finally:
            if not args.keep:
                for store in (small, yago):
                    small._db.run_schema_query(DELETE, tenant=store.tenant)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
