"""Issues 5 and 9 benchmark: the cost of the cascade inside the write that changes a premise, at two store sizes.

    .venv/bin/python bench/bench_cascade.py [--sizes 10000 100000] [--dependents 10000] [--trials 3] [--direct]

For each store size (`--sizes`, facts in the tenant when the cascade runs), builds through the public API
`--trials` + 1 dependency graphs, each hanging from one premise P: `--dependents` dependents on 8 levels (sizes 10,
40, 150, 400, 900, 1800, 2900, 3800 scaled to the total), each resting on a random fact of the level above (mixed
fan-out); 20% add a second premise from the level above (ANDed), and 3% get an alternative justification on an
anchor fact that stays believed, so they and what rests only on them keep their support. Dependents are written
with `add_facts(rows with depends_on)` and `store.justify` (with `--direct`: `add_facts` without premises, then the
same DEPENDS_ON edges drawn by `graph.dependencies.link`, the function `justify` uses, in one write per batch, much
faster to build). A store big enough holds all the graphs in one tenant; a smaller one is one tenant per graph
(each holds one graph, so "10,000 facts" with 10,000 dependents is the graph itself). Filler facts
(`store.add_facts`, one distinct subject each, a multi-valued predicate, literal objects, so no conflicts) bring
each tenant to the size.

(a) time of `store.end_fact(P)` including its cascade (flags everything that lost all support), one per graph,
after an untimed first one (Neo4j plans a query once per text and parameter size bucket, so the first cascade of a
size on a server also pays the planning); the walk's share is printed;
(b) a premise with 10 dependents: median and max over `--trials` premises of `store.retract_fact(premise)`
including its cascade, next to the same write on a premise with no dependents (the write's own cost).
The floor (`bench/floor.py`'s `cascade`: one path query returning the ids, one `FLAGGED` edge per dependent in one
transaction) is measured in the same run, on the same server, for `--dependents` (8 levels) and 10 (one level)
dependents, median of `--trials`, and each Credo median is printed with its ratio to it.
Wall time in this process (driver round trips included). The tenants are deleted at the end unless `--keep`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import credo
from credo.cypher import Query

sys.path.insert(0, str(Path(__file__).resolve().parent))
import floor  # noqa: E402

LEVELS = [10, 40, 150, 400, 900, 1800, 2900, 3800]


def fill(store: credo.Store, count: int, batch: int, label: str) -> None:
    """`count` independent facts in batches: each on its own subject (a multi-valued predicate, literal objects),
    so no write reads other filler facts (the conflict check of a shared subject grows with its current values)."""
    store.define_predicate("note", cardinality="multi")
    started = time.perf_counter()
    for start in range(0, count, batch):
        rows = [{"subject": f"n{i}", "predicate": "note", "object": f"value {i}", "object_is_entity": False,
                 "valid_from": "2024-01-01"} for i in range(start, min(count, start + batch))]
        store.add_facts(rows)
    print(f"  {label}: {count} filler facts in {time.perf_counter() - started:.1f} s")


def rule_rows(names: list[str], premises: list[list[str]]) -> list[dict]:
    return [{"subject": name, "predicate": "rests_on", "object": "premise", "object_is_entity": False,
             "statement": f"rule {name}", "valid_from": "2024-01-01", "depends_on": deps}
            for name, deps in zip(names, premises)]


def draw_premises(store: credo.Store, facts: list, deps: list[list[str]], versions: dict[str, str]) -> None:
    """Draw each fact's DEPENDS_ON edges (one justification ANDing its premises) with the repository function
    `justify` uses (`graph.dependencies.link`), in one write: the same edges, without a write per rule."""
    from credo.graph.truth.dependencies import link
    from credo.graph.core.ledger import new_id

    rows = []
    for fact, premises in zip(facts, deps):
        justification = new_id("j")
        rows += [{"from_id": fact.version_id, "to_id": versions[p], "justification": justification,
                  "valid_from": None, "valid_to": None} for p in premises]
    known = datetime.now(timezone.utc)
    store._db.write(lambda tx: link(tx, known, rows))


class _Ref:
    """A version id where `draw_premises` expects a written fact."""

    def __init__(self, version_id: str) -> None:
        self.version_id = version_id


def build_tree(store: credo.Store, total: int, batch: int, rng: random.Random, tag: str = "",
               direct: bool = False) -> tuple[str, int]:
    """P with `total` transitive dependents on 8 levels; returns (P's fact id, facts written, anchor included).
    With `direct`, the rules are written by `add_facts` without premises and their edges (and the alternative
    justifications) drawn by `draw_premises`
    (a loaded machine writes rules with premises at ≈16/s through `add_facts`)."""
    scale = total / sum(LEVELS)
    sizes = [max(1, round(n * scale)) for n in LEVELS]
    sizes[-1] += total - sum(sizes)
    premise = store.add_fact(f"P{tag}", "holds", "yes", valid_from="2024-01-01", statement=f"premise P{tag}")
    anchor = store.add_fact(f"anchor{tag}", "holds", "yes", valid_from="2024-01-01", statement="anchor")
    above, written, alternatives = [premise.fact_id], 2, []
    versions = {premise.fact_id: premise.version_id}
    started = time.perf_counter()
    for level, size in enumerate(sizes, 1):
        names = [f"{tag}L{level}_{i}" for i in range(size)]
        deps = []
        for _ in names:
            chosen = {rng.choice(above)}
            if level > 1 and rng.random() < 0.2:
                chosen.add(rng.choice(above))
            deps.append(sorted(chosen))
        current: list[str] = []
        for start in range(0, size, batch):
            if direct:
                facts = store.add_facts(rule_rows(names[start:start + batch], [[]] * len(names[start:start + batch])))
                draw_premises(store, facts, deps[start:start + batch], versions)
                versions.update((f.fact_id, f.version_id) for f in facts)
            else:
                facts = store.add_facts(rule_rows(names[start:start + batch], deps[start:start + batch]))
            current += [f.fact_id for f in facts]
        alternatives += [fid for fid in current if rng.random() < 0.03]
        above = current
        written += size
    if direct:  # the same edges `justify` draws (a justification of its own on the anchor), in one write
        versions[anchor.fact_id] = anchor.version_id
        by_id = [_Ref(versions[fid]) for fid in alternatives]
        if by_id:
            draw_premises(store, by_id, [[anchor.fact_id]] * len(by_id), versions)
    else:
        for fid in alternatives:
            store.justify(fid, premises=[anchor.fact_id])
    print(f"  dependency graph: {total} dependents on {len(sizes)} levels {sizes}, {len(alternatives)} with an "
          f"alternative justification, in {time.perf_counter() - started:.1f} s")
    return premise.fact_id, written + len(alternatives) * 0


def small_premises(store: credo.Store, trials: int) -> list[tuple[str, str]]:
    """`trials` pairs (premise with 10 dependents, premise with none)."""
    pairs = []
    for t in range(trials):
        p = store.add_fact(f"SP{t}", "holds", "yes", valid_from="2024-01-01")
        lone = store.add_fact(f"LONE{t}", "holds", "yes", valid_from="2024-01-01")
        store.add_facts(rule_rows([f"SD{t}_{i}" for i in range(10)], [[p.fact_id]] * 10))
        pairs.append((p.fact_id, lone.fact_id))
    return pairs


def time_small(store: credo.Store, pairs: list[tuple[str, str]]) -> dict[str, list[float]]:
    result: dict[str, list[float]] = {"with 10 dependents": [], "no dependents": []}
    for with_deps, lone in pairs:
        for key, fid in (("with 10 dependents", with_deps), ("no dependents", lone)):
            t0 = time.perf_counter()
            [gone] = store.retract_fact(fid, reason="bench")
            result[key].append(time.perf_counter() - t0)
            if key == "with 10 dependents":
                assert len(gone.cascade.facts) == 10, gone.cascade
    return result


def cleanup(store: credo.Store) -> None:
    """Delete this benchmark tenant's nodes (only its own), in batches."""
    text = "MATCH (n {tenant: $tenant}) WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS deleted"
    query = Query(name="bench_cleanup", text=text, declared=frozenset({"tenant"}))
    while store._db.query(query, write=True, tenant=store.tenant)[0]["deleted"]:
        pass


def floor_cascade(store: credo.Store, dependents: int, shape: tuple[int, ...], trials: int) -> tuple[float, float]:
    """Median seconds of the floor's collect + flag, and of its collect alone, over `trials` fresh graphs of
    `dependents` (own tenants)."""
    totals, collects = [], []
    for _ in range(trials):
        tenant = f"floor_{uuid.uuid4().hex[:8]}"
        result = floor.cascade(store._db, tenant, dependents, shape)
        totals.append(result["collect"] + result["flag"])
        collects.append(result["collect"])
        floor.drop(store._db, tenant)
    return statistics.median(totals), statistics.median(collects)


WALKS: list[float] = []


def time_walks() -> None:
    """Record the wall time of every cascade walk (`services.cascade._walk`) of this process in WALKS."""
    from credo.services.truth import cascade as cascade_service

    walk = cascade_service._walk

    def timed(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return walk(*args, **kwargs)
        finally:
            WALKS.append(time.perf_counter() - t0)

    cascade_service._walk = timed


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"


def time_big_one(store: credo.Store, premise: str) -> list[float]:
    """[seconds] of `end_fact(premise)` including its cascade, with what it flagged printed."""
    WALKS.clear()
    t0 = time.perf_counter()
    report = store.end_fact(premise, at="2025-01-01").cascade
    elapsed = time.perf_counter() - t0
    depths = [f.depth for f in report.facts]
    print(f"    {elapsed:.2f} s: checked {len(report.checked)}, flagged {len(report.facts)} (max depth "
          f"{max(depths) if depths else 0}), of which the walk {sum(WALKS):.3f} s")
    return [elapsed]


def main(argv: list[str] | None = None) -> int:
    """For each store size: build it, time (b) and (a), print the figures with the floor of the same run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000], help="facts in the store")
    parser.add_argument("--dependents", type=int, default=10_000)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--direct", action="store_true", help="draw the rules' premise edges in one write per batch")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    run = uuid.uuid4().hex[:8]
    base = credo.connect(tenant=f"bench_cascade_{run}", embedder=None)
    tenants: list[credo.Store] = []
    results: dict[int, dict[str, list[float]]] = {}
    try:
        print(f"floor (bench/floor.py, same server, median of {args.trials}), load average {os.getloadavg()[0]:.2f}")
        floor_small, _ = floor_cascade(base, 10, (10,), args.trials)
        floor_big, floor_collect = floor_cascade(base, args.dependents, floor.LEVELS, args.trials)
        print(f"  10 dependents: collect ids + one flag edge each {floor_small * 1000:.1f} ms")
        print(f"  {args.dependents} dependents: collect ids + one flag edge each {floor_big:.2f} s "
              f"(collect alone {floor_collect:.3f} s)")
        time_walks()
        for size in args.sizes:
            print(f"store of {size} facts, load average {os.getloadavg()[0]:.2f}")
            graphs = args.trials + 1
            # a store holding `graphs` dependency graphs when it is big enough, else one store per graph (each then
            # holds its graph and the filler up to `size`, so every cascade runs in a store of `size` facts)
            shared = size >= graphs * (args.dependents + 2) + 22 * args.trials
            stores = [base.for_tenant(f"bench_cascade_{run}_{size}_{g}") for g in range(1 if shared else graphs)]
            tenants += stores
            premises = []
            for g in range(graphs):
                store = stores[0 if shared else g]
                premise, _ = build_tree(store, args.dependents, args.batch, random.Random(args.seed + g),
                                        tag=f"G{g}", direct=args.direct)
                premises.append((store, premise))
            pairs = small_premises(stores[0], args.trials)
            for index, store in enumerate(stores):
                written = (graphs if shared else 1) * (args.dependents + 2) + (22 * args.trials if index == 0 else 0)
                fill(store, max(0, size - written), args.batch, f"tenant {index}")
            timings = time_small(stores[0], pairs)
            print(f"  (b) 10 dependents: {ms(timings['with 10 dependents'])}; no dependents: "
                  f"{ms(timings['no dependents'])}")
            print(f"  (a) {args.dependents} dependents:")
            big = []
            warm_store, warm = premises[0]
            t0 = time.perf_counter()
            report = warm_store.end_fact(warm, at="2025-01-01").cascade
            print(f"    warm-up (plans compiled): {time.perf_counter() - t0:.2f} s, flagged {len(report.facts)}")
            for store, premise in premises[1:]:
                big += time_big_one(store, premise)
            results[size] = {"small": timings["with 10 dependents"], "none": timings["no dependents"], "big": big}
        print(f"summary (medians; floor: 10 dependents {floor_small * 1000:.1f} ms, {args.dependents} dependents "
              f"{floor_big:.2f} s), load average {os.getloadavg()[0]:.2f}")
        for size, r in results.items():
            small_m, big_m = statistics.median(r["small"]), statistics.median(r["big"])
            print(f"  {size:>7} facts: 10 dependents {small_m * 1000:.1f} ms ({small_m / floor_small:.1f}x the floor; "
                  f"no dependents {statistics.median(r['none']) * 1000:.1f} ms); {args.dependents} dependents "
                  f"{big_m:.2f} s ({big_m / floor_big:.1f}x the floor)")
    finally:
        if not args.keep:
            for store in tenants:
                cleanup(store)
        base.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
