"""Issue 26 item 6: each client-side performance trick switched on and off in one process, the pairs interleaved.

    .venv/bin/python bench/audit_tricks.py [--parts plans reads ingest lookups import cascade] [--tricks T ...]
                                           [--pairs 3] [--dependents 10000]
    .venv/bin/python bench/without.py rust bench/audit_tricks.py --parts ingest reads   # a trick set at import

On a loaded machine a whole bench run drifts by more than most tricks are worth, so each trick is timed here on the
operation it was made for, on and off alternately (on, off, off, on, ...) in the same minutes, same tenant, same
server; wall and client CPU (`time.process_time`) medians are printed with the off/on ratio:
- cascade: a rolled-back 10,000-dependent `end_fact` (bench_cascade's graph, `--direct`): the collector pause, `Listed`,
  the plain-values path
- ingest: `add_facts` of 1,000 independent facts: `Listed`, the collector pause
- reads: `facts` point reads (blocks of 100): borrowed read sessions, the plain-values path of `Tx.rows`
- lookups: 30 searches of a 1,000-fact tenant with the default embedder: the look-ups beside the embedding
- import: `import_facts` of 1,000 facts in batches of 250 with the default embedder: the pipelined import thread
- plain (in reads and cascade): every record through the driver's `Record.data()` (no plain-values path in `Tx.rows`)
- plans: after `db.clearQueryCaches()`, six searches whose words, names and text fall in different size buckets
  (then the same six again, planned): the search's parameter padding (`sized_list` / `sized_text`)
The tenant is deleted at the end.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

import credo
import credo.graph.core.db as db
import credo.graph.recall.search as search_repo
import credo.services.facts.imports as imports
import credo.services.recall.search as search_service
from credo.graph.core.vectors import Listed

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_cascade  # noqa: E402
from profile_cascade import rolled_back  # noqa: E402
from without import _Inline  # noqa: E402

_PAUSED, _REPR, _IDLE = db.paused, Listed.__repr__, db._IDLE_SESSIONS
_SIZED = (search_repo.sized_list, search_repo.sized_text)
_LOOKUPS, _EXECUTOR = search_service._LOOKUPS, imports.ThreadPoolExecutor
_ROWS = db.Tx.rows


def _rows_via_data(self, query, **params):  # noqa: ANN001, ANN003, ANN202 - Tx.rows without its plain-values path
    self.statements += 1
    result = self._tx.run(getattr(query, "body", query.text), db._quiet(self.parameters(query, params)))
    found = [record.data() for record in result]
    cipher = db.cipher_of(self)
    return cipher.open_tree(self.credo_tenant, found) if cipher is not None else found


SWITCHES: dict[str, Callable[[bool], None]] = {
    "collector": lambda on: setattr(db, "paused", _PAUSED if on else nullcontext),
    "listed": lambda on: setattr(Listed, "__repr__", _REPR if on else list.__repr__),
    "sessions": lambda on: setattr(db, "_IDLE_SESSIONS", _IDLE if on else 0),
    "lookups": lambda on: setattr(search_service, "_LOOKUPS", _LOOKUPS if on else _Inline()),
    "import": lambda on: setattr(imports, "ThreadPoolExecutor", _EXECUTOR if on else _Inline),
    "plain": lambda on: setattr(db.Tx, "rows", _ROWS if on else _rows_via_data),
    "sized": lambda on: (setattr(search_repo, "sized_list", _SIZED[0] if on else lambda v: list(v or ()) or [""]),
                         setattr(search_repo, "sized_text", _SIZED[1] if on else lambda v: v or "")),
}


ONLY: set[str] = set()  # --tricks: only these are timed


def paired(trick: str, pairs: int, run: Callable[[], object], label: str) -> None:
    """Time `run` with `trick` on and off, alternately (on, off, off, on, ...), and print the medians."""
    if ONLY and trick not in ONLY:
        return
    times: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for i in range(pairs):
        for on in ((True, False) if i % 2 == 0 else (False, True)):
            SWITCHES[trick](on)
            gc.collect()
            t0, c0 = time.perf_counter(), time.process_time()
            run()
            times[on].append((time.perf_counter() - t0, time.process_time() - c0))
    SWITCHES[trick](True)
    wall = {on: statistics.median(t for t, _ in v) for on, v in times.items()}
    cpu = {on: statistics.median(c for _, c in v) for on, v in times.items()}
    load = open("/proc/loadavg").read().split()[0]
    print(f"{trick:<10} {label:<44} on {wall[True] * 1000:9.1f} ms wall {cpu[True] * 1000:8.1f} ms CPU | "
          f"off {wall[False] * 1000:9.1f} ms wall {cpu[False] * 1000:8.1f} ms CPU | off/on wall "
          f"{wall[False] / wall[True]:.2f}x CPU {cpu[False] / cpu[True]:.2f}x (load {load}; "
          f"walls on {[round(t * 1000) for t, _ in times[True]]} off {[round(t * 1000) for t, _ in times[False]]})",
          flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", default=["plans", "reads", "ingest", "cascade"])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--dependents", type=int, default=10_000)
    parser.add_argument("--tricks", nargs="+", default=[], help="time only these (default: every trick of the parts)")
    args = parser.parse_args(argv)
    ONLY.update(args.tricks)
    tenant = f"audit_{uuid.uuid4().hex[:8]}"
    store = credo.connect(tenant=tenant, embedder=None)
    rng = random.Random(7)
    try:
        store.define_predicate("note", cardinality="multi")
        batch = iter(range(10**6))

        def ingest() -> None:
            start = next(batch) * 1000
            store.add_facts([{"subject": f"n{i}", "predicate": "note", "object": f"value {i}",
                              "object_is_entity": False, "valid_from": "2024-01-01"}
                             for i in range(start, start + 1000)])

        ingest()  # plans the bulk write
        if "plans" in args.parts:
            questions = ["n1", "value of n2 note", "note value 3 n4 n5 n6 n7 n8 n9 n10 n11 n12 n13",
                         " ".join(f"word{i}" for i in range(40)), " ".join(f"n{i}" for i in range(120)),
                         "what is the note value of n17 " * 8]

            def six() -> None:
                store._db.query(db.Query(name="clear", text="CALL db.clearQueryCaches()", declared=frozenset()))
                for q in questions:
                    store.search(q, limit=10)

            def six_planned() -> None:
                for q in questions:
                    store.search(q, limit=10)

            six()
            paired("sized", args.pairs, six, "6 searches after clearQueryCaches")
            paired("sized", args.pairs, six_planned, "the same 6, plans cached")
        if "reads" in args.parts:
            def reads() -> None:
                for _ in range(100):
                    store.facts(f"n{rng.randrange(1000)}", "note")

            reads()
            paired("sessions", args.pairs, reads, "100 facts point reads")
            paired("plain", args.pairs, reads, "100 facts point reads")
        if "ingest" in args.parts:
            paired("listed", args.pairs, ingest, "add_facts of 1,000 facts")
            paired("collector", args.pairs, ingest, "add_facts of 1,000 facts")
        if "lookups" in args.parts or "import" in args.parts:
            with credo.connect(tenant=f"{tenant}_emb") as emb:
                try:
                    emb.define_predicate("note", cardinality="multi")
                    rows = iter(range(10**6))

                    def imported() -> None:
                        start = next(rows) * 1000
                        emb.import_facts(({"subject": f"e{i}", "predicate": "note", "object": f"value {i}",
                                           "object_is_entity": False, "valid_from": "2024-01-01",
                                           "statement": f"e{i} keeps a note: value {i} of the {i % 37}th series"}
                                          for i in range(start, start + 1000)), batch_size=250)

                    imported()
                    if "import" in args.parts:
                        paired("import", args.pairs, imported, "import_facts of 1,000 facts (batches of 250)")
                    if "lookups" in args.parts:
                        def searches() -> None:
                            for i in range(30):
                                emb.search(f"which note does e{rng.randrange(1000)} keep in series {i}", limit=10)

                        searches()
                        paired("lookups", args.pairs, searches, "30 searches, 1,000+ facts, default embedder")
                finally:
                    bench_cascade.cleanup(emb)
        if "cascade" in args.parts:
            premise, _ = bench_cascade.build_tree(store, args.dependents, 1000, random.Random(5), tag="G0",
                                                  direct=True)
            store._db.write = rolled_back(store._db)  # type: ignore[method-assign]
            try:
                def cascade() -> None:
                    store.end_fact(premise, at="2025-01-01")

                cascade()  # plans
                paired("collector", args.pairs, cascade, f"rolled-back end_fact, {args.dependents} dependents")
                paired("listed", args.pairs, cascade, f"rolled-back end_fact, {args.dependents} dependents")
                paired("plain", args.pairs, cascade, f"rolled-back end_fact, {args.dependents} dependents")
            finally:
                del store._db.write
    finally:
        bench_cascade.cleanup(store)
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
