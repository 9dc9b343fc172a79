"""Crypto-erasure benchmark (issue 12 item 4): the mode's cost on ingest and on reads (`facts`, `why`, `search`)
against the same run with the mode off, each a median of `--rounds` alternated rounds, with the floor's ingest
(bench/floor.py) in the same run for a ratio.

    set -a; . /work/prompts/neo4j.env; set +a   # or any NEO4J_* server
    .venv/bin/python bench/bench_crypto.py [--facts 2000] [--batch 500] [--samples 100] [--rounds 3]

Facts carry deterministic 384-dim hash embeddings (the vector index is exercised without the model's cost); each
round uses fresh tenants (deleted afterwards) and a temporary key directory.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo  # noqa: E402
from bench_bitemporal import Row  # noqa: E402
from bench_forget import HashEmbedder  # noqa: E402
from credo.services.core.crypto import cipher_for  # noqa: E402
from credo.services.adapters.key_stores import FileKeyStore  # noqa: E402
from credo.store import Store  # noqa: E402
import floor  # noqa: E402


def rows(n: int, people: int) -> list[dict]:
    return [{"subject": f"person {i % people}", "predicate": "visited", "object": f"city {i % 97}",
             "valid_from": "2020-01-01", "statement": f"person {i % people} said they visited city {i % 97} "
                                                     f"on trip {i} with a friend"} for i in range(n)]


def one_round(base: Store, mode: str, data: list[dict], batch: int, samples: int, rng: random.Random,
              key_dir: Path) -> dict[str, float]:
    tenant = f"cryptobench_{mode}_{uuid.uuid4().hex[:8]}"
    cipher = cipher_for(mode, FileKeyStore(key_dir), tenant)
    store = Store(base._db, tenant=tenant, embedder=HashEmbedder(), _owns_db=False, cipher=cipher)
    began = time.perf_counter()
    ids: list[str] = []
    for start in range(0, len(data), batch):
        ids += [f.fact_id for f in store.add_facts(data[start:start + batch])]
    out = {"ingest": len(data) / (time.perf_counter() - began)}
    people = sorted({r["subject"] for r in data})
    for name, call in (("facts", lambda: store.facts(rng.choice(people))),
                       ("why", lambda: store.why(rng.choice(ids))),
                       ("search", lambda: store.search(f"who visited city {rng.randrange(97)} with a friend"))):
        call()  # warm-up
        took = []
        for _ in range(samples):
            t = time.perf_counter()
            call()
            took.append(time.perf_counter() - t)
        out[name] = statistics.median(took) * 1000
    floor.drop(base._db, tenant)
    return out


def micro(key_dir: Path, n: int = 2000) -> dict[str, float]:
    """Client CPU of the two seams alone (no database): µs to seal one fact version's properties (statement and
    quote; the key store is read per seal) and to open one returned row."""
    cipher = cipher_for("on", FileKeyStore(key_dir), "micro")
    props = [{"version_id": f"v_{i}", "subject_id": f"e_{i % 200}", "object_type": "entity",
              "statement": f"person {i} said they visited city {i % 97}", "quote": f"I went to city {i % 97}"}
             for i in range(n)]
    t = time.perf_counter()
    [cipher.seal_fact("micro", p) for p in props]  # first use: 200 subjects' keys created (two fsyncs each)
    first_us = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    sealed = [cipher.seal_fact("micro", p) for p in props]
    seal_us = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for row in sealed:
        cipher.open_tree("micro", {"fact": row})
    open_us = (time.perf_counter() - t) / n * 1e6
    plain = [{"fact": p} for p in props]
    t = time.perf_counter()
    for row in plain:
        cipher.open_tree("micro", row)
    walk_us = (time.perf_counter() - t) / n * 1e6
    return {"first": first_us, "seal": seal_us, "open": open_us, "walk": walk_us}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=2000)
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    base = credo.connect(tenant="cryptobench", embedder=None)
    data = rows(args.facts, args.people)
    rng = random.Random(5)
    print(f"crypto bench on {base._db.uri}: {args.facts} facts, batch {args.batch}, {args.samples} samples, "
          f"{args.rounds} rounds; load average {os.getloadavg()}", flush=True)
    results: dict[str, list[dict[str, float]]] = {"off": [], "on": []}
    floors = []
    with tempfile.TemporaryDirectory() as keys:
        for r in range(args.rounds):
            tenant = f"cryptobench_floor_{uuid.uuid4().hex[:8]}"
            floor_rows = [Row(d["subject"], d["predicate"], d["object"], d["valid_from"], None, None, None)
                          for d in data]
            floors.append(len(data) / floor.ingest(base._db, tenant, floor_rows, args.batch,
                                                   HashEmbedder().embed([d["statement"] for d in data])))
            floor.drop(base._db, tenant)
            for mode in (("off", "on") if r % 2 == 0 else ("on", "off")):
                results[mode].append(one_round(base, mode, data, args.batch, args.samples, rng, Path(keys)))
                print(f"  round {r + 1} {mode:>3}: " + ", ".join(f"{k} {v:,.1f}" for k, v in results[mode][-1].items()),
                      flush=True)
        m = micro(Path(keys))
        print(f"seams alone (client CPU, µs per fact version): seal {m['seal']:.0f} (first use of 200 subjects' "
              f"keys {m['first']:.0f}), open a sealed row "
              f"{m['open']:.0f}, walk a plaintext row {m['walk']:.0f}")
    fl = statistics.median(floors)
    med = {m: {k: statistics.median(x[k] for x in rs) for k in rs[0]} for m, rs in results.items()}
    print(f"floor ingest (vectors given): {fl:,.0f} facts/s")
    print(f"{'':8} {'off':>12} {'on':>12} {'on/off':>8}")
    for k in ("ingest", "facts", "why", "search"):
        unit = "facts/s" if k == "ingest" else "ms p50"
        print(f"{k:8} {med['off'][k]:12,.1f} {med['on'][k]:12,.1f} {med['on'][k] / med['off'][k]:8.2f}  ({unit})")
    print(f"ingest vs floor: off {med['off']['ingest'] / fl:.2f}, on {med['on']['ingest'] / fl:.2f}")
    print(f"load average {os.getloadavg()}")
    base.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
