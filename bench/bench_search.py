"""Issue 11 benchmark: search p50/p95 (query embedding included) at 1k, 10k and 100k facts in one tenant, and a
1k-fact tenant alone vs beside a 100k-fact tenant.

    .venv/bin/python bench/bench_search.py [--big 100000] [--mid 10000] [--small 1000] [--queries 200] [--seed 11]

Uses NEO4J_URI (run it on an instance of its own: CREDO_INSTANCE=searchbench, a temporary CREDO_DATA_DIR). Facts
are synthetic sentences ("<person> <verb> <thing> in <place>"); the small tenant is written through `add_facts`
with the default embedder. The mid and big tenants are bulk-created in Cypher with the same node shape and random
unit vectors (`--bulk`, the default: embedding 110k texts on a shared 2-core machine takes longer than the
search figures need; a search's cost does not depend on the vectors' values) — `--no-bulk` writes them through
`add_facts` too. Queries are questions over the same vocabulary, embedded by each `search` call (included). Order: the small tenant alone, the mid tenant (exact
scan), the big tenant by exact scan, then partitioned (`search_partition.partition`, what `maintain()` runs past
the threshold), then the small tenant again beside it. Tenants are deleted at the end unless --keep.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid

import credo
from credo.cypher import Query
from credo.graph import search_partition

PEOPLE = [f"{a} {b}" for a in ("Ada", "Ben", "Chen", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea")
          for b in ("Moss", "Nash", "Ortiz", "Park", "Quinn", "Reyes", "Stone", "Tran", "Urban", "Voss")]
VERBS = ["owns", "maintains", "reviews", "migrates", "deploys", "audits", "designs", "funds", "tests", "documents"]
THINGS = ["the payments service", "the billing ledger", "the search index", "the mobile app", "the data lake",
          "the auth gateway", "the CRM export", "the invoice batch", "the metrics board", "the backup job",
          "the coffee machine", "the onboarding guide", "the pricing model", "the fraud rules", "the release train"]
PLACES = ["Berlin", "Lisbon", "Austin", "Osaka", "Nairobi", "Toronto", "Madrid", "Seoul", "Oslo", "Lima"]
QUESTIONS = ["who is responsible for {t}?", "what does {p} work on?", "anything about {t} in {c}?",
             "who {v} {t}", "{p} and {t}", "which team looks after {t}"]
DELETE = Query("delete_tenant", "MATCH (n) WHERE n.tenant = $tenant CALL (n) { DETACH DELETE n } IN TRANSACTIONS "
               "OF 10000 ROWS", frozenset({"tenant"}))


def rows(rng: random.Random, n: int) -> list[dict]:
    """n synthetic facts with readable statements."""
    out = []
    for i in range(n):
        p, v, t, c = rng.choice(PEOPLE), rng.choice(VERBS), rng.choice(THINGS), rng.choice(PLACES)
        out.append({"subject": f"{p} #{i}", "predicate": v, "object": credo.text(f"{t} in {c}"),
                    "statement": f"{p} {v} {t} in {c} (item {i})", "valid_from": "2020-01-01"})
    return out


def questions(rng: random.Random, n: int) -> list[str]:
    """n questions over the same vocabulary."""
    return [rng.choice(QUESTIONS).format(p=rng.choice(PEOPLE), t=rng.choice(THINGS), c=rng.choice(PLACES),
                                         v=rng.choice(VERBS)) for _ in range(n)]


BULK = Query("bulk_facts", """
UNWIND range(0, $n - 1) AS i
CALL (i) {
  WITH i, $statements[i % size($statements)] AS text
  CREATE (f:Fact {tenant: $tenant, fact_id: 'f_bulk' + $run + '_' + i, version_id: 'v_bulk' + $run + '_' + i,
                  subject_id: 'e_bulk' + $run + '_' + i, subject_name: 'item ' + i, predicate: 'notes',
                  object_type: 'string', object_value: text, object_name: text, statement: text + ' #' + i,
                  scope_key: '{}', kind: 'semantic', evidence: 'stated', epistemic: 'confirmed', state: 'active',
                  valid_from: datetime('2020-01-01T00:00:00Z'), valid_from_precision: 'day',
                  known_from: datetime('2024-01-01T00:00:00Z'), verified_at: datetime('2024-01-01T00:00:00Z')})
  WITH f, [k IN range(1, 384) | rand() - 0.5] AS v
  WITH f, v, sqrt(reduce(s = 0.0, x IN v | s + x * x)) AS norm
  SET f.embedding = [x IN v | x / norm]
} IN TRANSACTIONS OF 5000 ROWS
""", frozenset({"n", "statements", "tenant", "run"}))


def bulk(db, tenant: str, data: list[dict], run: str) -> float:
    """Create the rows' shape directly (same properties as add_facts writes), random unit vectors; seconds."""
    started = time.perf_counter()
    db.run_schema_query(BULK, n=len(data), statements=[r["statement"] for r in data[:5000]], tenant=tenant, run=run)
    return time.perf_counter() - started


def ingest(store: credo.Store, data: list[dict], batch: int = 2000) -> float:
    """Write the rows in batches; seconds taken."""
    started = time.perf_counter()
    for i in range(0, len(data), batch):
        store.add_facts(data[i:i + batch])
    return time.perf_counter() - started


def timed(store: credo.Store, qs: list[str]) -> tuple[float, float, float]:
    """(p50, p95, mean hits) in ms of store.search over the questions (after 10 warm-up calls)."""
    for q in qs[:10]:
        store.search(q)
    samples, hits = [], []
    for q in qs:
        t = time.perf_counter()
        found = store.search(q)
        samples.append((time.perf_counter() - t) * 1000)
        hits.append(len(found.hits))
    samples.sort()
    return samples[len(samples) // 2], samples[int(len(samples) * 0.95) - 1], statistics.mean(hits)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=int, default=100_000)
    parser.add_argument("--mid", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--no-bulk", dest="bulk", action="store_false")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    run = uuid.uuid4().hex[:8]
    qs = questions(rng, args.queries)
    with credo.connect(tenant=f"bench-small-{run}", start=False) as small:
        mid, big = small.for_tenant(f"bench-mid-{run}"), small.for_tenant(f"bench-big-{run}")
        db = small._db
        try:
            def report(label: str, store: credo.Store) -> None:
                p50, p95, mean = timed(store, qs)
                print(f"{label:<44} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  ({mean:.1f} hits)", flush=True)

            s = ingest(small, rows(rng, args.small))
            print(f"ingested {args.small} facts in {s:.1f} s", flush=True)
            report(f"{args.small} facts, alone", small)
            write = (lambda st, n: bulk(db, st.tenant, rows(rng, n), run + st.tenant.split("-")[1])) if args.bulk else (
                lambda st, n: ingest(st, rows(rng, n)))
            s = write(mid, args.mid)
            print(f"ingested {args.mid} facts in {s:.1f} s ({args.mid / s:,.0f}/s)", flush=True)
            report(f"{args.mid} facts (exact scan)", mid)
            s = write(big, args.big)
            print(f"ingested {args.big} facts in {s:.1f} s ({args.big / s:,.0f}/s)", flush=True)
            report(f"{args.big} facts (exact scan, no partition)", big)
            report(f"{args.small} facts beside {args.big}", small)
            t = time.perf_counter()
            search_partition.partition(db, big.tenant)
            print(f"partitioned {args.big} facts in {time.perf_counter() - t:.1f} s", flush=True)
            report(f"{args.big} facts (own vector index)", big)
            report(f"{args.small} facts beside {args.big} (partitioned)", small)
            search_partition.partition(db, mid.tenant)
            report(f"{args.mid} facts (own vector index)", mid)
        finally:
            if not args.keep:
                for store in (small, mid, big):
                    db.run_schema_query(DELETE, tenant=store.tenant)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
