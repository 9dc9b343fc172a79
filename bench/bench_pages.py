"""Issue 24 §7 benchmark: one page of a long listing over HTTP, against the floor of the same run.

    NEO4J_URI=... NEO4J_PASSWORD=... .venv/bin/python bench/bench_pages.py [--facts 3000] [--rounds 15]

A tenant holds `--facts` current facts (one per subject); `GET /v1/facts?limit=50` is timed for its first page and
for a page deep in the listing (following the cursors), through a real uvicorn on loopback with keep-alive. The
floor is the simplest correct query for one such page: the tenant's current versions ordered and cut with SKIP /
LIMIT in Cypher, read with the driver (no HTTP). Figures: p50 / p95 in ms and the page's ratio to the floor.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
import uuid

import httpx
import uvicorn

import credo
from credo.api.rest import create_app
from credo.services.access import api_keys


class _Floor:
    text = ("MATCH (f:Fact) WHERE f.tenant = $tenant AND f.known_to IS NULL AND f.state = 'active' "
            "RETURN f {.*, embedding: null} AS fact ORDER BY f.valid_from, f.known_from, f.version_id "
            "SKIP $skip LIMIT $limit")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--facts", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--page", type=int, default=30, help="the deep page timed besides the first (1-based)")
    args = parser.parse_args()
    tenant = f"bench_pages_{uuid.uuid4().hex[:8]}"
    store = credo.connect(tenant=tenant, embedder=None, start=False)
    key = api_keys.create_key(store._db, tenant=tenant, name="bench", scopes=["reader"]).secret
    rows = [{"subject": f"account {i:05d}", "predicate": "owned_by", "object": f"owner {i % 97}",
             "valid_from": "2024-01-01"} for i in range(args.facts)]
    for at in range(0, len(rows), 1000):
        store.add_facts(rows[at:at + 1000])
    app = create_app(credo.Settings(), db=store._db, embedder=None)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    url = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    http = httpx.Client(base_url=url, headers={"X-API-Key": key}, timeout=60)
    # the cursor of the deep page (cursors pin the known time of the first page, so it stays valid)
    cursor = None
    for _ in range(args.page - 1):
        cursor = http.get("/v1/facts", params={"limit": 50, **({"cursor": cursor} if cursor else {})}).json()["next_cursor"]
    first, deep, floor = [], [], []
    for _ in range(args.rounds):
        t = time.perf_counter()
        page = http.get("/v1/facts", params={"limit": 50})
        first.append((time.perf_counter() - t) * 1000)
        assert page.status_code == 200 and len(page.json()["items"]) == 50, page.text[:300]
        t = time.perf_counter()
        page = http.get("/v1/facts", params={"limit": 50, "cursor": cursor})
        deep.append((time.perf_counter() - t) * 1000)
        assert page.status_code == 200 and len(page.json()["items"]) == 50, page.text[:300]
        t = time.perf_counter()
        store._db.query(_Floor(), tenant=tenant, skip=(args.page - 1) * 50, limit=50)
        floor.append((time.perf_counter() - t) * 1000)
    server.should_exit = True
    f50 = statistics.median(floor)
    print(f"{args.facts} facts, limit 50, {args.rounds} rounds (ms)")
    print(f"  floor (one SKIP/LIMIT query, page {args.page}): p50 {f50:.1f}  p95 {pct(floor, 0.95):.1f}")
    for name, got in (("first page", first), (f"page {args.page}", deep)):
        p50 = statistics.median(got)
        print(f"  GET /v1/facts {name}: p50 {p50:.1f}  p95 {pct(got, 0.95):.1f}  ({p50 / f50:.1f}x the floor)")
    store.close()


if __name__ == "__main__":
    main()
