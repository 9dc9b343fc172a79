"""Issue 4 benchmark: write-gate throughput and `why` latency.

    NEO4J_URI=... NEO4J_PASSWORD=... .venv/bin/python bench/bench_gate.py [--calls 60] [--facts 10000] [--whys 300]

(a) `turn.remember` calls per second against turns of 1, 10 and 50 human messages of 200-2,000 characters
    (random words), each call quoting a random 6-12-word passage of a random message of the turn. The figure
    includes opening nothing else: one write transaction per call (gate check, entity resolution, conflict
    rule, SOURCED_FROM edge, audit).
(b) `why` p50/p95 on a store of `--facts` facts: filler facts via `store.add_facts` in batches of 500, plus
    200 remembered facts (message sources) and 200 cited documents; `why` is timed on random facts of both kinds.
Wall time in this process (driver round trips included). Tenants are deleted at the end unless `--keep`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid
from datetime import datetime, timedelta, timezone

import credo
from credo.cypher import Query

WORDS = ("cache service deploy billing ledger export cluster nightly token rotate bucket region column api "
         "client schema index replica backup owner review release rollback config flag metric alert").split()
T0 = datetime(2026, 11, 1, tzinfo=timezone.utc)


def text_of(rng: random.Random, size: int) -> str:
    out: list[str] = []
    while sum(len(w) + 1 for w in out) < size:
        out.append(rng.choice(WORDS) + str(rng.randint(0, 999)))
    return " ".join(out)


def messages(rng: random.Random, count: int, start: int = 0) -> list[dict]:
    return [{"index": start + i, "role": "user", "origin": "human_input", "author": "alice",
             "text": text_of(rng, rng.randint(200, 2000)), "at": T0 + timedelta(seconds=start + i)}
            for i in range(count)]


def quote_from(rng: random.Random, turn) -> str:
    words = rng.choice(turn.messages).text.split()
    n = rng.randint(6, 12)
    at = rng.randint(0, max(0, len(words) - n))
    return " ".join(words[at:at + n])


def cleanup(store: credo.Store) -> None:
    text = "MATCH (n {tenant: $tenant}) WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS deleted"
    query = Query(name="bench_cleanup", text=text, declared=frozenset({"tenant"}))
    while store._db.query(query, write=True, tenant=store.tenant)[0]["deleted"]:
        pass


def bench_remember(store: credo.Store, rng: random.Random, calls: int) -> list[tuple[int, float]]:
    figures = []
    for size in (1, 10, 50):
        session = f"turn{size}"
        store.ingest_messages(session, messages(rng, size))
        turn = store.turn(session)
        quotes = [quote_from(rng, turn) for _ in range(calls)]
        started = time.perf_counter()
        for q in quotes:  # the content says what the quote says: the gate refuses a claim its quote does not carry
            turn.remember(q, q)
        figures.append((size, calls / (time.perf_counter() - started)))
    return figures


def bench_why(store: credo.Store, rng: random.Random, facts: int, whys: int) -> tuple[float, float, float, list[str]]:
    store.define_predicate("note", cardinality="multi")
    started = time.perf_counter()
    ids: list[str] = []
    filler = facts - 200
    for start in range(0, filler, 500):
        rows = [{"subject": f"n{i % 2000}", "predicate": "note", "object": f"value {i}", "object_is_entity": False,
                 "valid_from": "2024-01-01"} for i in range(start, min(filler, start + 500))]
        ids += [f.fact_id for f in store.add_facts(rows)]
    store.ingest_messages("big", messages(rng, 40))
    turn = store.turn("big")
    for i in range(200):
        quote = quote_from(rng, turn)
        fact = turn.remember(quote, quote)
        doc = store.add_source("document", text_of(rng, 400), title=f"doc {i}", uri=f"https://example.org/{i}")
        store.cite(ids[i], doc.source_id)
        ids.append(fact.fact_id)
    build = time.perf_counter() - started
    sample = [rng.choice(ids) for _ in range(whys)]
    timings = []
    for fact_id in sample:
        t = time.perf_counter()
        store.why(fact_id)
        timings.append((time.perf_counter() - t) * 1000)
    timings.sort()
    return build, statistics.median(timings), timings[int(0.95 * len(timings)) - 1], sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--whys", type=int, default=300)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    rng = random.Random(4)
    run = uuid.uuid4().hex[:8]
    gate = credo.connect(tenant=f"bench_gate_{run}", embedder=None)
    big = credo.connect(tenant=f"bench_why_{run}", embedder=None)
    try:
        for size, rate in bench_remember(gate, rng, args.calls):
            print(f"remember, turn of {size:>2} messages: {rate:7.1f} calls/s ({args.calls} calls)")
        build, p50, p95, _ = bench_why(big, rng, args.facts, args.whys)
        print(f"store of {args.facts} facts built in {build:.1f} s")
        print(f"why over {args.facts} facts: p50 {p50:.1f} ms, p95 {p95:.1f} ms ({args.whys} calls)")
    finally:
        if not args.keep:
            cleanup(gate)
            cleanup(big)
        gate.close()
        big.close()


if __name__ == "__main__":
    main()
