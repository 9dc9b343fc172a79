"""What the settle step (services/core/settle.py) costs an as-of `facts` read, as a ratio to the floor's point read.

    .venv/bin/python bench/bench_settle.py [--limit 3000] [--samples 300] [--batch 1000] [--seed 35]

Loads the first `--limit` YAGO11k rows (bench_bitemporal.py's loader and ingest: Credo through `add_facts`, the
floor (bench/floor.py) into a tenant of its own, batches interleaved) into a fresh tenant, then times
`facts(subject, predicate, valid_at=T, known_at=K)` through the public API in three cases:

- **seen**: K a past point this process has already seen settled (a point after the load, read once before the clock
  starts, minus up to the load's duration): the settle step answers from the process's `SettledPoints`, no query;
- **past**: K = now − 1 ms, later than the tenant's last commit and than every point seen so far: the settle step
  reads the clock (one small read transaction), then takes the clock's lock and records K as `settled` (one write
  transaction) before the read;
- **now**: no known time (believed now): no settle step.

Each sample reads the same (row, valid time) in the three cases and with the floor's as-of `facts` read
(`floor.read_one`, one auto-commit query by index seek), in an order rotated per sample, so a load swing of the
shared machine moves every side alike. Prints p50/p95 of each and each case's ratio to the floor's p50 (p95 to p95).
The tenants' nodes are deleted at the end.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo  # noqa: E402
import floor  # noqa: E402
from bench_bitemporal import YAGO, cleanup, ingest, load_yago, percentile, pick_point  # noqa: E402

CASES = ("seen", "past", "now")


def measure(store: credo.Store, rows: list, floor_tenant: str, *, samples: int, rng: random.Random,
            loaded: tuple[datetime, datetime], warmup: int = 20) -> dict[str, list[float]]:
    """Seconds per read of each case and of the floor, `samples` each after `warmup` untimed rounds."""
    began, ended = loaded
    settled = ended + timedelta(seconds=1)
    while datetime.now(timezone.utc) <= settled:  # the seen point must be past before it is settled
        time.sleep(0.1)
    dated = [r for r in rows if r.start is not None]
    store.facts(dated[0].subject, dated[0].predicate, known_at=settled)  # settles it: the process has seen it
    span = (settled - began).total_seconds()
    times: dict[str, list[float]] = {name: [] for name in (*CASES, "floor")}

    def timed(call) -> float:
        t0 = time.perf_counter()
        call()
        return time.perf_counter() - t0

    with store._db._driver.session(database=store._db.database, default_access_mode="READ") as session:
        for n in range(warmup + samples):
            row = rng.choice(dated)
            at = pick_point(rng, row)[0]
            seen = settled - timedelta(seconds=rng.uniform(0, span))
            reads = {
                "seen": lambda: store.facts(row.subject, row.predicate, valid_at=at, known_at=seen),
                "past": lambda: store.facts(row.subject, row.predicate, valid_at=at,
                                            known_at=datetime.now(timezone.utc) - timedelta(milliseconds=1)),
                "now": lambda: store.facts(row.subject, row.predicate, valid_at=at),
                "floor": lambda: floor.read_one(session, "facts", floor_tenant, row, at),
            }
            order = list(reads)
            order = order[n % len(order):] + order[:n % len(order)]
            took = {name: timed(reads[name]) for name in order}
            if n >= warmup:
                for name, seconds in took.items():
                    times[name].append(seconds)
    return times


def report(times: dict[str, list[float]]) -> list[str]:
    """One line per case and the floor: p50 / p95 in ms, and each case's ratio to the floor."""
    f50, f95 = percentile(times["floor"], 50), percentile(times["floor"], 95)
    lines = [f"floor  facts p50 {f50:6.2f} ms  p95 {f95:6.2f} ms  (n={len(times['floor'])})"]
    for name in CASES:
        p50, p95 = percentile(times[name], 50), percentile(times[name], 95)
        lines.append(f"{name:<6} facts p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  ratio to the floor {p50 / f50:.2f}x "
                     f"(p95 {p95 / f95:.2f}x)")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Load, measure, print, clean up."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=3000, help="YAGO rows to load")
    parser.add_argument("--samples", type=int, default=300, help="timed samples per case")
    parser.add_argument("--batch", type=int, default=1000, help="facts per add_facts call")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args(argv)
    if not YAGO.exists():
        print(f"dataset folder {YAGO} is absent", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    tenant = f"bench_settle_{uuid.uuid4().hex[:8]}"
    rows, _counts = load_yago(YAGO, args.limit)
    store = credo.connect(tenant=tenant, embedder=None)
    try:
        print(f"tenant {tenant} on {store._db.uri}, Neo4j {store._db.server_info()['version']}; {len(rows)} facts")
        for rel in sorted({r.predicate for r in rows}):
            store.define_predicate(rel, cardinality="multi")
        began = datetime.now(timezone.utc)
        ingest(store, rows, args.batch, f"{tenant}_floor")
        times = measure(store, rows, f"{tenant}_floor", samples=args.samples, rng=rng,
                        loaded=(began, datetime.now(timezone.utc)))
        for line in report(times):
            print(line)
    finally:
        cleanup(store)
        floor.drop(store._db, f"{tenant}_floor")
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
