"""Issue 25: a search's hits, every field, over the bench's questions, to compare two trees hit for hit.

    .venv/bin/python bench/compare_search_hits.py --make            # writes the tenants once, prints their names
    .venv/bin/python bench/compare_search_hits.py --tenants T1,T2 --out /tmp/a.json
    <other tree>/.venv/bin/python bench/compare_search_hits.py --tenants T1,T2 --out /tmp/b.json
    .venv/bin/python bench/compare_search_hits.py --diff /tmp/a.json /tmp/b.json
    .venv/bin/python bench/compare_search_hits.py --tenants T1,T2 --cpu    # client and server CPU ms per search

Uses NEO4J_URI. `--make` writes a tenant through `add_facts` (real embeddings: the lexical and vector paths find the
same facts, entities exist) and a bulk tenant (bench_search.py's shape, random vectors). The questions are
bench_search.py's (same seed) plus questions naming a subject exactly (so the graph path runs), each asked at
`limit` 10 and 5; a hit is compared by kind, id, version, text, score, weak and each path's rank and score.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo  # noqa: E402
from bench_search import DELETE, bulk, distinct, ingest, questions, rows  # noqa: E402
from server_cpu import Cpu  # noqa: E402


def asked(n: int, seed: int) -> list[str]:
    """bench_search.py's questions (same generator and seed), then questions naming one of the written subjects."""
    rng = random.Random(seed)
    qs = distinct(lambda: questions(rng, 1)[0], n)
    named = [r["subject"] for r in rows(random.Random(seed), 200)[:: 200 // max(1, n // 3)]]
    return qs + [f"what does {s} do" for s in named] + [f"{s} {r}" for s, r in zip(named, ("owns", "audits", "tests"))]


def answers(store: credo.Store, qs: list[str]) -> list[list]:
    out = []
    for q in qs:
        for limit in (10, 5):
            found = store.search(q, limit=limit)
            out.append([q, limit, [[h.kind, h.id, h.version_id, h.text, round(h.score, 12), h.weak,
                                    {p: [s.rank, s.score] for p, s in sorted(h.paths.items())}] for h in found.hits]])
    return out


def cpu(tenants: list[str], qs: list[str]) -> int:
    """Client and server CPU ms per search (limit 10) over the questions, per tenant, after 10 warm-ups."""
    with credo.connect(tenant=tenants[0], start=False) as first:
        meter = Cpu(first._db.uri)
        for tenant in tenants:
            store = first.for_tenant(tenant)
            for q in qs[:10]:
                store.search(q)
            spent = meter.timed(lambda: [store.search(q) for q in qs])
            n = len(qs)
            server = "?" if spent["server"] is None else f"{spent['server'] * 1000 / n:.2f}"
            print(f"{tenant}: {n} searches, wall {spent['wall'] * 1000 / n:.2f} ms, client "
                  f"{spent['client'] * 1000 / n:.2f} ms, server {server} ms CPU per search", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--make", action="store_true")
    parser.add_argument("--drop", help="comma-separated tenants to delete")
    parser.add_argument("--tenants")
    parser.add_argument("--out")
    parser.add_argument("--diff", nargs=2)
    parser.add_argument("--cpu", action="store_true")
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    if args.diff:
        a, b = (json.loads(Path(p).read_text()) for p in args.diff)
        same = sum(1 for x, y in zip(a, b) if x == y)
        for x, y in zip(a, b):
            if x != y:
                print("differs:", x[0], x[1], x[2][:2], y[2][:2])
        hits = sum(len(x[2]) for x in a)
        print(f"{same} of {len(a)} answers identical ({len(b)} in the other; {hits} hits)")
        return 0 if same == len(a) == len(b) else 1
    if args.make:
        run = uuid.uuid4().hex[:8]
        with credo.connect(tenant=f"cmp-small-{run}", start=False) as small:
            ingest(small, rows(random.Random(args.seed), 1000))
            bulk(small._db, f"cmp-mid-{run}", rows(random.Random(args.seed), 3000), run + "mid")
        print(f"cmp-small-{run},cmp-mid-{run}")
        return 0
    if args.drop:
        with credo.connect(tenant="cmp-drop", start=False) as store:
            for tenant in args.drop.split(","):
                store._db.run_schema_query(DELETE, tenant=tenant)
        return 0
    qs = asked(args.queries, args.seed)
    if args.cpu:
        return cpu(args.tenants.split(","), qs)
    out = []
    with credo.connect(tenant=args.tenants.split(",")[0], start=False) as first:
        for tenant in args.tenants.split(","):
            out += answers(first.for_tenant(tenant), qs)
    Path(args.out).write_text(json.dumps(out))
    print(f"{len(out)} answers, {sum(len(x[2]) for x in out)} hits -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
