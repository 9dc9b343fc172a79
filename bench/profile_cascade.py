"""Issue 9 harness: PROFILE every statement of one 10,000-dependent `end_fact` on bench_cascade's graph, rolled back.

    .venv/bin/python bench/profile_cascade.py [--dependents 10000] [--runs 2] [--timed 1] [--tenant T] [--keep]
                                              [--operators]

Builds (or, with `--tenant`, reuses) one dependency graph of bench_cascade.py's shape (`--direct` edges), then runs
`store.end_fact(P)` `--runs` times in transactions that are rolled back (the graph stays as built, so every run does
the same work), each statement run under PROFILE: its db hits, rows and wall time are printed per statement, with
the heaviest operators when `--operators` is given. `--timed` runs without PROFILE follow (the first of them also
plans the unprofiled texts) and give the unprofiled wall. Each statement is sent as `Tx.rows` sends it (its body,
comment lines dropped); every run also prints each statement's server time (the summary's available + consumed
milliseconds) and, for a local server, the server's CPU seconds.
The tenant is deleted at the end unless `--keep` (then `--tenant` reuses it).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import uuid
from pathlib import Path

import credo
from credo.graph.core.db import Tx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_cascade  # noqa: E402
from server_cpu import Cpu  # noqa: E402

STATS: list[dict] = []
PROFILE = [True]


def _hits(plan: dict, operators: list[tuple[int, str, int]]) -> int:
    args = plan.get("args", {})
    own = int(plan.get("dbHits") or args.get("DbHits") or 0)
    details = args.get("Details", "")
    operators.append((own, f"{plan.get('operatorType', '?')} {details}"[:150], int(plan.get("rows", 0) or 0)))
    return own + sum(_hits(child, operators) for child in plan.get("children", []))


def profiled_rows(self: Tx, query, **params):
    """Tx.rows with each statement PROFILEd (rows as Tx.rows returns them; the text Tx.rows sends, comment lines
    dropped, so the unprofiled runs reuse the plans the service caches)."""
    self.statements += 1
    t0 = time.perf_counter()
    body = getattr(query, "body", query.text)
    result = self._tx.run(("PROFILE " if PROFILE[0] else "") + body, self.parameters(query, params))
    found = [dict(zip(record.keys(), record.values())) for record in result]
    summary = result.consume()
    elapsed = time.perf_counter() - t0
    operators: list[tuple[int, str, int]] = []
    hits = _hits(summary.profile, operators) if PROFILE[0] and summary.profile else 0
    server = ((summary.result_available_after or 0) + (summary.result_consumed_after or 0)) / 1000
    STATS.append({"name": query.name, "hits": hits, "rows": len(found), "s": elapsed, "server": server,
                  "top": sorted(operators, reverse=True)[:8]})
    return found


class _Rollback(Exception):
    pass


def rolled_back(db):
    """db.write that runs the work and rolls its transaction back, returning the work's result."""
    write = db.write

    def run(work):
        def inner(tx):
            raise _Rollback(work(tx))

        try:
            write(inner)
        except _Rollback as done:
            return done.args[0]
        raise AssertionError("the work did not finish")

    return run


def main(argv: list[str] | None = None) -> int:
    """Build or reuse the graph, then profile `end_fact(P)` `--runs` times and time it once unprofiled."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dependents", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--timed", type=int, default=1)
    parser.add_argument("--tenant")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--operators", action="store_true")
    args = parser.parse_args(argv)
    tenant = args.tenant or f"profile_cascade_{uuid.uuid4().hex[:8]}"
    store = credo.connect(tenant=tenant, embedder=None)
    try:
        found = store._db.query(bench_cascade.Query(
            name="bench_premise", text="MATCH (f:Fact {tenant: $tenant, subject_name: 'PG0'}) "
                                       "RETURN f.fact_id AS id LIMIT 1", declared=frozenset({"tenant"})),
            tenant=tenant)
        if found:
            premise = found[0]["id"]
        else:
            premise, _ = bench_cascade.build_tree(store, args.dependents, 1000, random.Random(5), tag="G0",
                                                  direct=True)
        print(f"tenant {tenant}, premise {premise}")
        cpu = Cpu(store._db.uri)
        store._db.write = rolled_back(store._db)  # type: ignore[method-assign]
        original = Tx.rows
        Tx.rows = profiled_rows  # type: ignore[method-assign]
        try:
            for run in range(args.runs + args.timed):
                PROFILE[0] = run < args.runs
                STATS.clear()
                s0, t0, c0 = cpu.server(), time.perf_counter(), time.process_time()
                report = store.end_fact(premise, at="2025-01-01").cascade
                wall, client, s1 = time.perf_counter() - t0, time.process_time() - c0, cpu.server()
                server = "" if s0 is None or s1 is None else f", {s1 - s0:.2f} s server CPU"
                label = "profiled" if PROFILE[0] else "unprofiled"
                print(f"run {run} ({label}): {wall:.2f} s wall, {client:.2f} s client CPU{server}, flagged "
                      f"{len(report.facts)}, checked {len(report.checked)}")
                for s in STATS:
                    # an unprofiled statement has no db hits to show (a "0 db hits" there read as a broken profile)
                    hits = f"{s['hits']:>9,} db hits" if PROFILE[0] else f"{'':>17}"
                    print(f"  {s['name']:<28} {hits} {s['rows']:>6} rows {s['s'] * 1000:>8.1f} ms "
                          f"({s['server'] * 1000:.1f} ms on the server)")
                    if args.operators and PROFILE[0]:
                        for hits, what, rows in s["top"]:
                            if hits:
                                print(f"      {hits:>9,} {rows:>7} rows  {what}")
                total = sum(s['hits'] for s in STATS)
                hits = f"{total:,} db hits, " if PROFILE[0] else ""
                print(f"  total {hits}{sum(s['s'] for s in STATS) * 1000:.0f} ms in statements "
                      f"({sum(s['server'] for s in STATS) * 1000:.0f} ms on the server)")
                if PROFILE[0] and not total:
                    raise SystemExit("the server's profiles carried no db hits: the harness reads them wrongly")
        finally:
            Tx.rows = original  # type: ignore[method-assign]
    finally:
        del store._db.write
        if not args.keep:
            bench_cascade.cleanup(store)
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
