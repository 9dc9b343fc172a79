"""Where a search's time goes beyond its floor: each stage of `store.search` timed where it runs (by thread), and
each stage timed alone, beside the floor (the question's embedding + one filtered top-10 SEARCH returning ids).

    .venv/bin/python bench/profile_search.py [--facts 10000] [--queries 100] [--tenant NAME] [--keep]

Uses NEO4J_URI. Without --tenant, a tenant is bulk-created as bench_search.py makes its mid tenant (random unit
vectors, the same node shape and search keys) and deleted at the end unless --keep; --tenant asks an existing one
(created first when it holds no fact). Per question, in a rotating order so every step sees the same load: the
floor; the search, with the repository calls and the embedding it makes timed inside it; and alone: the embedding,
the look-ups the search runs beside it (entities + summaries, then the lexical and graph paths), the vector path's
query, and the floor's SEARCH without its embedding. Prints p50 and mean (ms) of each.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
import uuid
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo  # noqa: E402
from bench_search import BULK, DELETE, FLOOR_SEARCH, distinct, floor, questions, rows  # noqa: E402
from server_cpu import Cpu, run_once, wait_quiet  # noqa: E402

from credo.cypher import Query  # noqa: E402
from credo.graph.recall import search as search_repo  # noqa: E402
from credo.graph.core.records import FAR_FUTURE  # noqa: E402
from credo.schema.lifecycle import SERVED_VALUES  # noqa: E402
from credo.schema.search import epoch_ms  # noqa: E402
from credo.services.recall import search as search_service  # noqa: E402
from credo.services.recall import search_rules as rules  # noqa: E402
from credo.services.core.context import Context  # noqa: E402

COUNT = Query("count_tenant", "MATCH (f:Fact {tenant: $t}) RETURN count(*) AS n", frozenset({"t"}))
SIDE = ("look-up: entities+summaries+lexical", "look-up: graph")
_events: list[tuple[str, str, float, float]] = []  # (stage, thread, start, end) of the search being timed


def _timed(name: str, fn):
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            label = name if name != "facts" else "vector query" if kwargs.get("vector") is not None else SIDE[1]
            _events.append((label, threading.current_thread().name, t0, time.perf_counter()))
    return wrapper


def instrument() -> None:
    """Wrap the repository calls and the embedding, so each search leaves its timeline in `_events`."""
    search_repo.facts = _timed("facts", search_repo.facts)
    search_repo.lookups = _timed(SIDE[0], search_repo.lookups)
    search_service._supported = _timed("support check", search_service._supported)
    Context.embed = _timed("embed", Context.embed)


def timeline(t0: float, t1: float, into: dict[str, list[float]]) -> None:
    """Add one search's stages (started at t0, returned at t1) to `into`, in ms."""
    by: dict[str, float] = defaultdict(float)
    for stage, _thread, s, e in _events:
        by[stage] += (e - s) * 1000
    for stage, ms in by.items():
        into[f"{stage} (its own time)"].append(ms)
    starts = {stage: s for stage, _t, s, _e in _events}
    ends = {stage: e for stage, _t, _s, e in _events}
    side_end = max((ends.get(s, t0) for s in SIDE), default=t0)
    main_end = ends.get("vector query", ends.get("embed", t0))
    into["start -> embedding starts"].append((starts.get("embed", t0) - t0) * 1000)
    gap = starts.get("vector query", t0) - ends.get("embed", t0)
    into["embedding ends -> vector query starts"].append(gap * 1000)
    into["waiting for the look-ups after the vector query"].append(max(0.0, side_end - main_end) * 1000)
    into["after both (support, fusion, hits)"].append((t1 - max(main_end, side_end)) * 1000)
    into["vector queries per search"].append(sum(1 for e in _events if e[0] == "vector query"))


def report(title: str, samples: dict[str, list[float]]) -> None:
    print(title)
    for name, xs in samples.items():
        print(f"  {name:<55} p50 {sorted(xs)[len(xs) // 2]:6.2f}   mean {statistics.mean(xs):6.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--tenant")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    run = uuid.uuid4().hex[:8]
    tenant = args.tenant or f"bench-prof-{run}"
    asked = distinct(lambda: questions(rng, 1)[0], args.queries + 10)
    print(f"{os.uname().nodename}, {os.cpu_count()} cores, load {os.getloadavg()}", flush=True)
    with credo.connect(tenant=tenant, start=False) as store:
        db, ctx = store._db, store._ctx
        made = not db.query(COUNT, t=tenant)[0]["n"]
        if made:
            t = time.perf_counter()
            data = rows(rng, args.facts)
            run_once(db, BULK, n=len(data), statements=[r["statement"] for r in data[:5000]], tenant=tenant,
                     run=run + "prof")
            print(f"loaded {args.facts} facts in {time.perf_counter() - t:.1f} s; server at rest after "
                  f"{wait_quiet(Cpu(db.uri)):.1f} s", flush=True)
        try:
            measure = floor(db, tenant)
            facts = dict(valid_at=datetime.now(timezone.utc), known_at=None, states=list(SERVED_VALUES), kinds=None,
                         scope_key=None, pool=20, need=10)

            def lookups(q: str) -> None:
                ctx.read(lambda tx: search_repo.lookups(
                    tx, tenant, entity_lucene=rules.lucene(q, search_service.ENTITY_FIELDS, tenant),
                    summary_lucene=rules.lucene(q, search_service.SUMMARY_FIELDS, tenant),
                    lucene=rules.lucene(q, search_service.FACT_FIELDS, tenant), **facts))

            def vector_query(v: list[float], q: str) -> None:
                ctx.read(lambda tx: search_repo.facts(
                    tx, tenant, lucene=None, vector=v, entity_ids=[], words=[], paths=frozenset({"vector"}), full=10,
                    vector_floor=rules.vector_floor(q), **facts))

            def floor_search(v: list[float]) -> None:
                db.read(lambda tx: tx.rows(FLOOR_SEARCH, vector=v, tenant=tenant, known=epoch_ms(FAR_FUTURE),
                                           valid=epoch_ms(datetime.now(timezone.utc))))

            instrument()
            for q in asked[:10]:
                store.search(q)
                measure(q)
                lookups(q)
            alone: dict[str, list[float]] = defaultdict(list)
            inside: dict[str, list[float]] = defaultdict(list)
            for i, q in enumerate(asked[10:]):
                v = ctx.embedder.embed([q])[0]
                steps = [("floor", lambda: measure(q)), ("search", None),
                         ("embedding", lambda: ctx.embedder.embed([q])),
                         ("look-ups (entities+summaries, lexical+graph)", lambda: lookups(q)),
                         ("vector path's query", lambda: vector_query(v, q)),
                         ("floor's SEARCH (no embedding)", lambda: floor_search(v))]
                shift = i % len(steps)
                for name, fn in steps[shift:] + steps[:shift]:
                    _events.clear()
                    t0 = time.perf_counter()
                    store.search(q) if fn is None else fn()
                    t1 = time.perf_counter()
                    alone[name].append((t1 - t0) * 1000)
                    if fn is None:
                        timeline(t0, t1, inside)
            print(f"tenant {tenant}, {len(asked) - 10} questions, load {os.getloadavg()[0]:.1f}")
            report("alone (ms):", alone)
            report("inside a search (ms):", inside)
        finally:
            if made and not args.keep:
                db.run_schema_query(DELETE, tenant=tenant)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
