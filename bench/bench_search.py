"""Issues 11 and 25 benchmark: search p50/p95 (query embedding included) at 1k, 10k and 100k facts in one tenant, a
1k-fact tenant alone vs beside a 100k-fact tenant, and 15k YAGO11k facts (the data Graphiti 0.31 was measured on).

    .venv/bin/python bench/bench_search.py [--big 100000] [--mid 10000] [--small 1000] [--yago 15000]
                                           [--queries 120] [--seed 11] [--keep] [--vector-cut K]

Uses NEO4J_URI (run it on an instance of its own). Facts are synthetic sentences ("<person> <verb> <thing> in
<place>"); the small tenant is written through `add_facts` with the default embedder. The mid and big tenants are
bulk-created in Cypher with the same node shape, search keys (schema/search.py search_keys) and random unit
vectors (`--bulk`, the default: embedding 110k texts on a shared 2-core machine takes longer than the search figures
need; a search's cost does not depend on the vectors' values); `--no-bulk` writes them through `add_facts`. Every
tenant's versions are in the one `fact_search` vector index, which filters inside its search. The
YAGO tenant is the first --yago rows of ../shared/datasets/yago11k written through `add_facts` with embeddings
(every relation multi-valued), asked "<relation> <object>" questions. Every question is distinct (no repeats,
warm-up questions apart), so a vector cache could not help. Each figure comes with a floor measured in the same
run, each question's floor timed beside its search (alternately before and after it, so both see the same load):
the query's embedding plus one filtered top-10 SEARCH of `fact_search` returning ids, with the filter Credo's search
sends (tenant, known and valid time now, clearance rank): the least work a filtered vector search does. Order: small alone, mid, big, small beside big, small alone again once the big tenant is
deleted, then YAGO; before the small tenant is timed beside the big one and alone again, the server is let come to
rest (its index merges after the big tenant's bulk load: load, not tenant size). Tenants are deleted at the end
unless --keep.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import statistics
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo  # noqa: E402
from credo.cypher import Query  # noqa: E402
from credo.cypher import expand  # noqa: E402
from credo.schema.search import epoch_ms  # noqa: E402
from server_cpu import Cpu, run_once, wait_quiet  # noqa: E402

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


BULK = Query("bulk_facts", expand("""
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
  SET f += @search_keys(f, null)
} IN TRANSACTIONS OF 5000 ROWS
"""), frozenset({"n", "statements", "tenant", "run"}))


def bulk(db, tenant: str, data: list[dict], run: str) -> float:
    """Create the rows' shape directly (same properties as add_facts writes), random unit vectors; seconds."""
    started = time.perf_counter()
    run_once(db, BULK, n=len(data), statements=[r["statement"] for r in data[:5000]], tenant=tenant, run=run)
    return time.perf_counter() - started


def ingest(store: credo.Store, data: list[dict], batch: int = 2000) -> float:
    """Write the rows in batches; seconds taken."""
    started = time.perf_counter()
    for i in range(0, len(data), batch):
        store.add_facts(data[i:i + batch])
    return time.perf_counter() - started


def distinct(make, n: int) -> list[str]:
    """n distinct questions from `make()` (a question generator)."""
    seen: dict[str, None] = {}
    for _ in range(n * 50):
        seen.setdefault(make(), None)
        if len(seen) == n:
            break
    return list(seen)


def percentiles(samples: list[float]) -> tuple[float, float]:
    """(p50, p95) of the samples (nearest rank)."""
    ordered = sorted(samples)
    return ordered[len(ordered) // 2], ordered[max(0, int(len(ordered) * 0.95 + 0.5) - 1)]


def timed(store: credo.Store, qs: list[str], warm: list[str]) -> tuple[float, float, float, float, float]:
    """(p50, p95, mean hits, floor p50, floor p95) in ms of store.search over the questions (after the warm-up
    questions), each question's floor timed right before or after its search (alternately), so the ratio to the
    floor sees the same load as the figure on a shared machine."""
    measure = floor(store._db, store.tenant)
    for q in warm:
        store.search(q)
        measure(q)
    samples, floors, hits = [], [], []
    for i, q in enumerate(qs):
        if i % 2:
            floors.append(measure(q))
        t = time.perf_counter()
        found = store.search(q)
        samples.append((time.perf_counter() - t) * 1000)
        if not i % 2:
            floors.append(measure(q))
        hits.append(len(found.hits))
    p50, p95 = percentiles(samples)
    f50, f95 = percentiles(floors) if all(f == f for f in floors) else (float("nan"), float("nan"))
    return p50, p95, statistics.mean(hits), f50, f95


# the floor's one query: a filtered top-10 SEARCH of `fact_search` returning ids, with the filter a search of the
# tenant now sends (tenant, known and valid time, clearance rank)
INDEX_FILTER = ("f.tenant = $tenant AND f.known_from_key <= $known AND f.known_to_key >= $known "
                "AND f.valid_from_key <= $valid AND f.valid_to_key >= $valid AND f.sensitivity_rank <= 4")
FLOOR_SEARCH = Query("read_floor", "CYPHER 25 MATCH (f:Fact) SEARCH f IN (VECTOR INDEX fact_search FOR $vector "
                     f"WHERE {INDEX_FILTER} LIMIT 10) SCORE AS score RETURN f.version_id AS id, score",
                     frozenset({"vector", "tenant", "known", "valid"}))


def floor(db, tenant: str):
    """The floor of one question, in ms: embed it, one filtered top-10 SEARCH of `fact_search` (ids only), with the
    filter a search of the tenant now sends."""
    from datetime import datetime, timezone

    from credo.graph.core.records import FAR_FUTURE
    from credo.services.adapters.embeddings import default_embedder

    embedder = default_embedder()
    known = epoch_ms(FAR_FUTURE)

    def measure(q: str) -> float:
        t = time.perf_counter()
        vector = embedder.embed([q])[0]
        valid = epoch_ms(datetime.now(timezone.utc))
        db.read(lambda tx: tx.rows(FLOOR_SEARCH, vector=vector, tenant=tenant, known=known, valid=valid))
        return (time.perf_counter() - t) * 1000

    return measure


def yago_rows(n: int) -> tuple[list[dict], list[str], list]:
    """The first n YAGO11k rows as add_facts rows, their relations, and the loaded rows."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_bitemporal import load_yago

    folder = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets" / "yago11k"
    loaded, _counts = load_yago(folder.resolve(), limit=None)
    loaded = loaded[:n]
    data = [{"subject": r.subject, "predicate": r.predicate, "object": r.object, "valid_from": r.valid_from,
             "valid_to": r.valid_to} for r in loaded]
    return data, sorted({r.predicate for r in loaded}), loaded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=int, default=100_000)
    parser.add_argument("--mid", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--yago", type=int, default=15_000)
    parser.add_argument("--queries", type=int, default=120)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--no-bulk", dest="bulk", action="store_false")
    parser.add_argument("--vector-cut", type=int, default=None,
                        help="the vector path's first cut (graph/recall/search.py FIRST_CUT; default: the tree's)")
    args = parser.parse_args()
    if args.vector_cut:
        from credo.graph.recall import search as search_repo
        search_repo.FIRST_CUT["vector"] = args.vector_cut
    rng = random.Random(args.seed)
    run = uuid.uuid4().hex[:8]
    asked = distinct(lambda: questions(rng, 1)[0], args.queries + 10)
    warm, qs = asked[:10], asked[10:]
    print(f"{os.uname().nodename}, {os.cpu_count()} cores, load {os.getloadavg()}", flush=True)
    with credo.connect(tenant=f"bench-small-{run}", start=False) as small:
        mid, big, yago = (small.for_tenant(f"bench-{k}-{run}") for k in ("mid", "big", "yago"))
        db = small._db
        cpu = Cpu(db.uri)
        try:
            def report(label: str, store: credo.Store, questions_: list[str] = qs, warm_: list[str] = warm) -> None:
                p50, p95, mean, f50, f95 = timed(store, questions_, warm_)
                print(f"{label:<36} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  ({mean:.1f} hits)  floor p50 {f50:6.1f} "
                      f"p95 {f95:6.1f} ms  ratio p50 {p50 / f50:4.1f}x p95 {p95 / f95:4.1f}x  load "
                      f"{os.getloadavg()[0]:.1f}", flush=True)

            def write(store: credo.Store, n: int) -> float:
                if not args.bulk:
                    return ingest(store, rows(rng, n))
                return bulk(db, store.tenant, rows(rng, n), run + store.tenant.split("-")[1])

            s = ingest(small, rows(rng, args.small))
            print(f"ingested {args.small} facts in {s:.1f} s", flush=True)
            report(f"{args.small} facts, alone", small)
            s = write(mid, args.mid)
            print(f"loaded {args.mid} facts in {s:.1f} s", flush=True)
            report(f"{args.mid} facts", mid)
            s = write(big, args.big)
            print(f"loaded {args.big} facts in {s:.1f} s", flush=True)
            report(f"{args.big} facts", big)
            # the big tenant at rest: what is timed is whether its size slows the small one, not its index merges
            print(f"  server at rest after {wait_quiet(cpu):.1f} s", flush=True)
            report(f"{args.small} facts beside {args.big}", small)
            t = time.perf_counter()
            db.run_schema_query(DELETE, tenant=big.tenant)
            print(f"deleted the {args.big}-fact tenant in {time.perf_counter() - t:.1f} s", flush=True)
            print(f"  server at rest after {wait_quiet(cpu):.1f} s", flush=True)
            report(f"{args.small} facts, alone again", small)
            if args.yago:
                data, relations, loaded = yago_rows(args.yago)
                for rel in relations:
                    yago.define_predicate(rel, cardinality="multi")
                s = ingest(yago, data)
                print(f"ingested {len(data)} YAGO11k facts in {s:.1f} s", flush=True)
                yrng = random.Random(args.seed)
                yq = distinct(lambda: (lambda r: f"{r.predicate} {r.object}")(yrng.choice(loaded)), args.queries + 10)
                report(f"{len(data)} YAGO11k facts", yago, yq[10:], yq[:10])
        finally:
            if not args.keep:
                for store in (small, mid, big, yago):
                    db.run_schema_query(DELETE, tenant=store.tenant)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
