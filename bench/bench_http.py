"""Issue 10 benchmark: the REST surface over loopback HTTP (keep-alive) against the embedded Store.

    NEO4J_URI=... NEO4J_PASSWORD=... .venv/bin/python bench/bench_http.py [--reads 300] [--remembers 160] [--seconds 30]

(a) as-of read (`facts(subject, predicate, valid_at, known_at)`) p50/p95 through `credo.Client` over HTTP and
    through the embedded Store on the same data; the difference is the HTTP overhead.
(b) `remember` calls/s with 8 concurrent HTTP clients (each its own session and turn).
(c) a bounded mixed load run: 8 clients for `--seconds`, 70 % as-of reads / 30 % add_fact writes; errors and p95.
The server is uvicorn in this process's thread (127.0.0.1, ephemeral port), embeddings off. Tenants are left in
place (each run uses fresh ones).
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import uvicorn

import credo
from credo.api.rest import create_app
from credo.client import Client
from credo.services.access import api_keys


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def serve(store: credo.Store) -> tuple[str, uvicorn.Server]:
    app = create_app(credo.Settings(), db=store._db, embedder=None)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}", server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--remembers", type=int, default=160)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    rng = random.Random(10)
    tenant = f"bench_http_{uuid.uuid4().hex[:8]}"
    store = credo.connect(tenant=tenant, embedder=None, start=False)
    key = api_keys.create_key(store._db, tenant=tenant, name="bench", scopes=["operator"]).secret  # writes add_fact
    url, server = serve(store)
    client = Client(url, key)
    subjects = [f"acct{i}" for i in range(50)]
    store.add_facts([{"subject": s, "predicate": "owned_by", "object": f"owner{i}", "valid_from": "2024-01-01"}
                     for i, s in enumerate(subjects)])
    known = store.facts(subjects[0], "owned_by")[0].known_from

    def timed(call) -> float:
        t = time.perf_counter()
        call()
        return (time.perf_counter() - t) * 1000

    for _ in range(20):  # warm both paths
        client.facts(subjects[0], "owned_by", valid_at="2024-03-01", known_at=known)
        store.facts(subjects[0], "owned_by", valid_at="2024-03-01", known_at=known)
    embedded, http = [], []
    for _ in range(args.reads):
        s = rng.choice(subjects)
        embedded.append(timed(lambda: store.facts(s, "owned_by", valid_at="2024-03-01", known_at=known)))
        http.append(timed(lambda: client.facts(s, "owned_by", valid_at="2024-03-01", known_at=known)))
    print(f"as-of read embedded p50 {pct(embedded, .5):.2f} ms p95 {pct(embedded, .95):.2f} ms")
    print(f"as-of read HTTP     p50 {pct(http, .5):.2f} ms p95 {pct(http, .95):.2f} ms")
    print(f"HTTP overhead at p50 {pct(http, .5) - pct(embedded, .5):.2f} ms")

    def rememberer(n: int) -> int:
        with Client(url, key) as c:
            session = f"bench-{n}"
            c.ingest_messages(session, [{"index": 0, "role": "user", "origin": "human_input", "author": "a",
                                         "text": " ".join(f"fact{n}_{i} holds." for i in range(100)),
                                         "at": "2026-11-01T00:00:00Z"}])
            for i in range(args.remembers // 8):
                c.remember(session, f"fact{n}_{i} holds.", f"fact{n}_{i} holds")
        return args.remembers // 8

    t0 = time.perf_counter()
    with ThreadPoolExecutor(8) as pool:
        done = sum(pool.map(rememberer, range(8)))
    print(f"remember with 8 clients: {done / (time.perf_counter() - t0):.1f} calls/s ({done} calls)")

    stop = time.monotonic() + args.seconds
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def loader(n: int) -> None:
        local = random.Random(n)
        with Client(url, key) as c:
            i = 0
            while time.monotonic() < stop:
                i += 1
                try:
                    if local.random() < 0.7:
                        ms = timed(lambda: c.facts(local.choice(subjects), "owned_by", valid_at="2024-03-01"))
                    else:
                        ms = timed(lambda: c.add_fact(f"load{n}", "note", f"v{i}", object_is_entity=False))
                    with lock:
                        latencies.append(ms)
                except credo.CredoError as exc:
                    with lock:
                        errors.append(type(exc).__name__)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(loader, range(8)))
    print(f"mixed load {args.seconds:.0f} s, 8 clients: {len(latencies)} calls, {len(errors)} errors, "
          f"p50 {pct(latencies, .5):.1f} ms p95 {pct(latencies, .95):.1f} ms, "
          f"{len(latencies) / args.seconds:.0f} calls/s")
    client.close()
    server.should_exit = True
    store.close()


if __name__ == "__main__":
    main()
