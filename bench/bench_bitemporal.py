"""Issue 3 benchmark: load YAGO11k through the public API, check as-of reads against an oracle, time them.

    .venv/bin/python bench/bench_bitemporal.py [--limit N] [--queries 1000] [--batch 1000] [--seed 3]

Connects with `credo.connect(tenant=..., embedder=None)` (NEO4J_URI / NEO4J_PASSWORD are honoured) into a fresh
tenant of its own, and deletes that tenant's nodes at the end unless `--keep` is given.

Data: `../shared/datasets/yago11k` train + valid + test (20,509 rows `subject relation object start end`, ids
mapped to names through entity2id.txt / relation2id.txt; `<Getafe_CF>` becomes "Getafe CF", `<playsFor>` becomes
"playsFor"). Dates keep their precision: `1998-05-12` is a day, `1998-05-##` the month "1998-05", `1998-##-##`
the year "1998"; three-digit years are zero-padded ("360" -> "0360"). A date that does not name at least a year
is unknown: `####-##-##`, but also `19##-##-##` (a century), `-405-##-##` (BCE, outside Python's datetime) and the
malformed `307-13047-09` and `1963-64-65`. An unknown start is an undated fact (valid_from None: never part of the
dated answer at a valid time, but returned apart, marked undated, wherever it has not ended); an unknown end is open
(valid_to None).

Interval convention: the YAGO end date is taken as the exclusive end, i.e. the claim holds over [start, end) --
DESIGN.md §2's half-open rule applied to the text as given, at its own precision (playsFor 2010..2011 holds in
2010 and not in 2011). The inclusive reading ([start, end + 1 day)) has no single meaning for year- or
month-precision ends, which are most of the data. Under [start, end), a row whose end equals its start is empty
(YAGO's point events: wasBornIn, diedIn, ...) and a row whose end is before its start is inverted; the store
refuses both, so they are skipped and counted. Both bounds are compared as instants (the start of their period),
so `1998-05-12 .. 1998` is inverted too. The oracle applies exactly the same rule.

Every YAGO relation is first defined multi-valued (`define_predicate(rel, cardinality="multi")`): YAGO states
overlapping values as plain facts (a footballer plays for a club and a national team at once; people hold two
affiliations), so under the single-valued default the conflict rule of DESIGN.md §4 would keep later values
as `conflicted` or bound open-ended ones -- correct behaviour for the store, but then the data would no longer go
in as-is and the oracle would have to re-implement the conflict rule it is meant to check.

Checks: `--queries` random `holders(predicate, object, valid_at=T)` / `relations(entity, valid_at=T)` queries,
T a random date or a boundary of a random fact (start - 1 day, start, end - 1 day, end), compared with a
brute-force oracle as sets of (subject, predicate, object), the dated answer and the undated part each; plus `--known-checks` queries at the known time
reached after the first half of the batches (facts of the second half must be absent). Any mismatch is printed
with its details and the script exits 1.

Latency: p50/p95 of as-of point queries `facts(subject, predicate, valid_at=T)`, `holders` and `relations`, each
timed on its own through the public API (wall time in this process, so including driver round trips and model
building), `--latency` samples per kind. With `--context`, the context package of a fact's subject at a point
(`context(subject, valid_at=T)`) is timed too, paired with the floor's `relations` read of the same entity at the
same point (one query for the entity's relations: the least a package reads).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo  # noqa: E402
import floor  # noqa: E402
from credo.graph.facts.entities import normalise
from credo.schema.errors import InvalidInput
from credo.schema.names import normalise_predicate
from credo.schema.time import parse_point

UTC = timezone.utc
DAY = timedelta(days=1)
ROOT = Path(__file__).resolve().parents[1]
YAGO = ROOT.parent / "shared" / "datasets" / "yago11k"
SPLITS = ("train.txt", "valid.txt", "test.txt")
_DATE = re.compile(r"^(\d{1,4})-([0-9#]{2})-([0-9#]{2})$")


@dataclass(frozen=True)
class Row:
    """One YAGO fact as loaded: names, date texts for the API, parsed bounds for the oracle."""

    subject: str
    predicate: str
    object: str
    valid_from: str | None
    valid_to: str | None
    start: datetime | None
    end: datetime | None

    def holds_at(self, at: datetime) -> bool:
        """Half-open [start, end) containment; an undated row is never in the dated answer (DESIGN.md §2)."""
        return self.start is not None and self.start <= at and (self.end is None or at < self.end)

    def may_hold_at(self, at: datetime) -> bool:
        """An undated row (start unknown) that has not ended by `at`: read apart, marked undated (DESIGN.md §2)."""
        return self.start is None and (self.end is None or at < self.end)

    def key(self) -> tuple[str, str, str]:
        """(subject, predicate, object) with names normalised the way the store resolves them."""
        return (normalise(self.subject), normalise_predicate(self.predicate), normalise(self.object))


def yago_date(text: str) -> str | None:
    """YAGO date text -> Credo date text at its precision ('1998', '1998-05', '1998-05-12'), or None if unknown."""
    m = _DATE.match(text.strip())
    if not m:
        return None
    year, month, day = m.groups()
    if "#" in year or int(year) == 0:
        return None
    year = year.zfill(4)
    text = year if "#" in month else f"{year}-{month}" if "#" in day else f"{year}-{month}-{day}"
    try:
        parse_point(text, "date")
    except InvalidInput:  # one row says 1963-64-65
        return None
    return text


def _names(path: Path) -> dict[str, str]:
    """id -> readable name from a `<Name_With_Underscores>\\tid[\\t...]` file."""
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        parts = line.split("\t")
        out[parts[1].strip()] = parts[0].strip().removeprefix("<").removesuffix(">").replace("_", " ").strip()
    return out


def load_yago(folder: Path, limit: int | None = None) -> tuple[list[Row], dict[str, int]]:
    """Rows in file order (train, valid, test) and counts of what was skipped or left undated."""
    entities, relations = _names(folder / "entity2id.txt"), _names(folder / "relation2id.txt")
    rows: list[Row] = []
    counts = {"read": 0, "skipped_end_equals_start": 0, "skipped_end_before_start": 0, "undated": 0, "open_end": 0}
    for split in SPLITS:
        for line in (folder / split).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            if limit is not None and counts["read"] >= limit:
                break
            counts["read"] += 1
            s, r, o, start_text, end_text = line.split("\t")
            vf, vt = yago_date(start_text), yago_date(end_text)
            start = parse_point(vf, "valid_from")[0] if vf else None
            end = parse_point(vt, "valid_to")[0] if vt else None
            if start is not None and end is not None and end <= start:
                counts["skipped_end_equals_start" if end == start else "skipped_end_before_start"] += 1
                continue
            counts["undated"] += start is None
            counts["open_end"] += start is not None and end is None
            rows.append(Row(entities[s], relations[r], entities[o], vf, vt, start, end))
    return rows, counts


class Oracle:
    """Brute force over the loaded rows: which (subject, predicate, object) hold at a point."""

    def __init__(self, rows: list[Row], batch_of: list[int]) -> None:
        self.by_target: dict[tuple[str, str], list[tuple[Row, int]]] = defaultdict(list)
        self.by_entity: dict[str, list[tuple[Row, int]]] = defaultdict(list)
        for row, batch in zip(rows, batch_of):
            self.by_target[(normalise_predicate(row.predicate), normalise(row.object))].append((row, batch))
            self.by_entity[normalise(row.subject)].append((row, batch))
            if normalise(row.object) != normalise(row.subject):
                self.by_entity[normalise(row.object)].append((row, batch))

    def holders(self, predicate: str, obj: str, at: datetime, before_batch: int | None = None, *,
                undated: bool = False) -> set:
        """Rows with this predicate and object holding at `at` (loaded before `before_batch`, if given); with
        `undated`, the undated rows that may hold there instead."""
        return {r.key() for r, b in self.by_target[(normalise_predicate(predicate), normalise(obj))]
                if (r.may_hold_at(at) if undated else r.holds_at(at)) and (before_batch is None or b < before_batch)}

    def relations(self, entity: str, at: datetime, before_batch: int | None = None, *, undated: bool = False) -> set:
        """Rows touching the entity (either end) holding at `at` (with `undated`, the undated ones that may)."""
        return {r.key() for r, b in self.by_entity[normalise(entity)]
                if (r.may_hold_at(at) if undated else r.holds_at(at)) and (before_batch is None or b < before_batch)}


def fact_key(fact: credo.Fact) -> tuple[str, str, str]:
    """The store's answer in the oracle's terms."""
    return (normalise(fact.subject), fact.predicate, normalise(fact.object_name))


def ingest(store: credo.Store, rows: list[Row], batch: int,
           floor_tenant: str | None = None) -> tuple[list[int], datetime, int, float, float]:
    """Load rows in batches; with `floor_tenant`, each batch is also written by the floor (bench/floor.py) into
    that tenant, back to back with Credo's and in alternating order, so a load swing moves both sides of the ratio.
    Returns each row's batch number, the known time after the first half, the number of batches in that half, and
    Credo's and the floor's seconds (the floor's 0.0 without `floor_tenant`)."""
    batches = [rows[i:i + batch] for i in range(0, len(rows), batch)]
    half = (len(batches) + 1) // 2
    batch_of = [i // batch for i in range(len(rows))]
    mid: datetime | None = None
    elapsed = floor_elapsed = 0.0

    def credo_batch(chunk: list[Row]) -> float:
        t0 = time.perf_counter()
        store.add_facts([{"subject": r.subject, "predicate": r.predicate, "object": r.object,
                          "valid_from": r.valid_from, "valid_to": r.valid_to} for r in chunk])
        return time.perf_counter() - t0

    with store._db._driver.session(database=store._db.database) as session:
        for n, chunk in enumerate(batches):
            if n == half:
                mid = datetime.now(UTC)
                time.sleep(0.01)  # the next commit's known time is strictly later than `mid`
            floor_took = 0.0
            if floor_tenant is not None and n % 2:
                floor_took = floor.ingest_batch(session, floor_tenant, chunk)
            took = credo_batch(chunk)
            if floor_tenant is not None and not n % 2:
                floor_took = floor.ingest_batch(session, floor_tenant, chunk)
            elapsed, floor_elapsed = elapsed + took, floor_elapsed + floor_took
            done = min((n + 1) * batch, len(rows))
            if n % 5 == 4 or n == len(batches) - 1 or len(batches) <= 5:
                print(f"  ingested {done:>6}/{len(rows)} facts  {done / elapsed:,.0f} facts/s (this batch: Credo "
                      f"{took * 1000:,.0f} ms, floor {floor_took * 1000:,.0f} ms)", flush=True)
    return batch_of, mid or datetime.now(UTC), half, elapsed, floor_elapsed


def warm_up(store: credo.Store, rows: list[Row], batch: int, total: int) -> None:
    """Plan Credo's and the floor's write and read queries once, on throwaway tenants (deleted at once), so the
    timed run measures executions rather than the first plans (which a long-running store pays once): one batch of
    each size the timed run of `total` rows writes (`batch`, and the last one's size). Neo4j keeps a plan per list
    size bucket (0, 1, 2-10, 11-100, ...), so a last batch of another size is planned again (≈ 0.25 s for the bulk
    write's read).
    measured: this bench on Neo4j 2026.08.1 (2026-12-03 15:20, load 10), the warm-up's batches of 1,000 and 424 took
    4,795 and 1,825 ms against 686-1,238 ms for the timed run's batches (bench/history/journal.md, last section)."""
    last = total % batch or batch
    warm = credo.connect(tenant=f"{store.tenant}_warm", embedder=None)
    try:
        for rel in sorted({r.predicate for r in rows}):
            warm.define_predicate(rel, cardinality="multi")
        shapes = [rows[-(batch + last):-last]] if last != batch else []
        shapes.append(rows[-last:])
        for chunk in shapes:
            _, _, _, _, _ = ingest(warm, chunk, batch, floor_tenant=f"{store.tenant}_warm_floor")
        latency(warm, rows[-(batch + last):], samples=5, rng=random.Random(0),
                floor_tenant=f"{store.tenant}_warm_floor")
    finally:
        cleanup(warm)
        floor.drop(warm._db, f"{store.tenant}_warm_floor")
        warm.close()


def pick_point(rng: random.Random, row: Row) -> tuple[datetime, str]:
    """A random date (30%) or a boundary of `row` (start - 1 day, start, end - 1 day, end)."""
    boundaries = ["start-1", "start"] + (["end-1", "end"] if row.end else [])
    kind = "random" if rng.random() < 0.3 else rng.choice(boundaries)
    if kind == "random":
        return datetime(rng.randint(1800, 2020), rng.randint(1, 12), rng.randint(1, 28), tzinfo=UTC), kind
    base = row.start if kind.startswith("start") else row.end
    return (base - DAY if kind.endswith("-1") else base), kind


def check(store: credo.Store, rows: list[Row], oracle: Oracle, *, queries: int, known_checks: int,
          mid: datetime, half: int, batch_of: list[int], rng: random.Random) -> list[str]:
    """Random holders/relations queries (and a few at the mid known time) against the oracle; the mismatches."""
    dated = [i for i, r in enumerate(rows) if r.start is not None]
    mismatches: list[str] = []
    kinds: dict[str, int] = defaultdict(int)

    def compare(label: str, got: set, want: set) -> None:
        if got != want:
            mismatches.append(f"{label}: store-only={sorted(got - want)[:5]} oracle-only={sorted(want - got)[:5]}"
                              f" (store {len(got)}, oracle {len(want)})")

    for n in range(queries + known_checks):
        at_mid = n >= queries
        if at_mid:  # facts loaded in the second half: must be absent at `mid`; first-half facts present
            pool = [i for i in dated if batch_of[i] >= half] if n % 2 == 0 else [i for i in dated if batch_of[i] < half]
            row = rows[rng.choice(pool or dated)]
        else:
            row = rows[rng.choice(dated)]
        at, kind = pick_point(rng, row)
        kinds[kind] += 1
        known = {"known_at": mid} if at_mid else {}
        before = half if at_mid else None
        if n % 2 == 0:
            found = store.holders(row.predicate, row.object, valid_at=at, **known)
            label = f"holders({row.predicate!r}, {row.object!r}, valid_at={at.date()}{', known_at=mid' if at_mid else ''})"
            compare(label, {fact_key(f) for f in found.dated}, oracle.holders(row.predicate, row.object, at, before))
            compare(f"{label} undated", {fact_key(f) for f in found.undated},
                    oracle.holders(row.predicate, row.object, at, before, undated=True))
        else:
            entity = row.subject if rng.random() < 0.5 else row.object
            rels = store.relations(entity, valid_at=at, **known)
            label = f"relations({entity!r}, valid_at={at.date()}{', known_at=mid' if at_mid else ''})"
            compare(label, {fact_key(r.fact) for r in rels.dated}, oracle.relations(entity, at, before))
            compare(f"{label} undated", {fact_key(r.fact) for r in rels.undated},
                    oracle.relations(entity, at, before, undated=True))
        if (n + 1) % 250 == 0:
            print(f"  checked {n + 1}/{queries + known_checks} queries, {len(mismatches)} mismatches", flush=True)
    print(f"  query points: {dict(kinds)}")
    return mismatches


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of samples, in ms."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))] * 1000


def latency(store: credo.Store, rows: list[Row], *, samples: int, rng: random.Random,
            floor_tenant: str | None = None, context: bool = False
            ) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Time each as-of point query kind through the public API; with `floor_tenant`, each sample is paired with the
    floor's read of the same entity at the same point, the two run back to back in alternating order, so a load
    swing moves both sides of the ratio alike; with `context`, the context package too (its floor: `relations`).
    Returns (Credo's timings, the floor's)."""
    dated = [r for r in rows if r.start is not None]
    timings: dict[str, list[float]] = {"facts": [], "holders": [], "relations": []}
    floors: dict[str, list[float]] = {"facts": [], "holders": [], "relations": []}
    calls = {
        "facts": lambda r, at: store.facts(r.subject, r.predicate, valid_at=at),
        "holders": lambda r, at: store.holders(r.predicate, r.object, valid_at=at),
        "relations": lambda r, at: store.relations(r.subject, valid_at=at),
    }
    if context:
        calls["context"] = lambda r, at: store.context(r.subject, valid_at=at)
        timings["context"], floors["context"] = [], []
    floor_kind = {"context": "relations"}

    def credo_read(name: str, row: Row, at: datetime) -> float:
        t0 = time.perf_counter()
        calls[name](row, at)
        return time.perf_counter() - t0

    with store._db._driver.session(database=store._db.database, default_access_mode="READ") as session:
        for name in calls:
            for n in range(20 + samples):  # the first 20 warm the driver pool and the query plans
                row = rng.choice(dated)
                at = pick_point(rng, row)[0]
                if floor_tenant is None:
                    pair = (credo_read(name, row, at), None)
                elif n % 2:
                    pair = (credo_read(name, row, at),
                            floor.read_one(session, floor_kind.get(name, name), floor_tenant, row, at))
                else:
                    floor_took = floor.read_one(session, floor_kind.get(name, name), floor_tenant, row, at)
                    pair = (credo_read(name, row, at), floor_took)
                if n >= 20:
                    timings[name].append(pair[0])
                    if pair[1] is not None:
                        floors[name].append(pair[1])
    return timings, floors


def cleanup(store: credo.Store) -> None:
    """Delete this benchmark tenant's nodes (only its own) and free its search partition's slot for the next run."""
    floor.drop(store._db, store.tenant)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the exit code (1 on any oracle mismatch)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="load only the first N rows")
    parser.add_argument("--queries", type=int, default=1000, help="oracle-checked holders/relations queries")
    parser.add_argument("--known-checks", type=int, default=50, help="extra checks at the mid-load known time")
    parser.add_argument("--batch", type=int, default=1000, help="facts per add_facts call")
    parser.add_argument("--latency", type=int, default=500, help="timed samples per query kind")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1,
                        help="0: no warm-up; else one batch of each size the run writes is first written (and read) "
                             "on throwaway tenants, to plan the queries")
    parser.add_argument("--tenant", default=None, help="tenant to load into (default: a fresh one)")
    parser.add_argument("--keep", action="store_true", help="keep the tenant's data afterwards")
    parser.add_argument("--context", action="store_true",
                        help="time the context package too (its floor: the entity's relations read)")
    args = parser.parse_args(argv)
    if not YAGO.exists():
        print(f"dataset folder {YAGO} is absent", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    tenant = args.tenant or f"bench_yago_{uuid.uuid4().hex[:8]}"

    rows, counts = load_yago(YAGO, args.limit)
    print(f"loaded {counts['read']} rows: {len(rows)} to ingest ({counts['undated']} undated, {counts['open_end']} "
          f"open-ended); skipped {counts['skipped_end_equals_start']} with end == start and "
          f"{counts['skipped_end_before_start']} with end < start")

    store = credo.connect(tenant=tenant, embedder=None)
    try:
        print(f"tenant {tenant} on {store._db.uri}, Neo4j {store._db.server_info()['version']}")
        for rel in sorted({r.predicate for r in rows}):
            store.define_predicate(rel, cardinality="multi")
        floor_tenant = f"{tenant}_floor"
        if args.warmup:
            warm_up(store, rows, args.batch, len(rows))
        batch_of, mid, half, elapsed, floor_elapsed = ingest(store, rows, args.batch, floor_tenant)
        rate, floor_rate = len(rows) / elapsed, len(rows) / floor_elapsed
        print(f"ingest: {len(rows)} facts in {elapsed:.1f} s = {rate:,.0f} facts/s (batch {args.batch}; target >= 2,000)")
        print(f"ingest floor (bench/floor.py, same run, batches interleaved): {floor_rate:,.0f} facts/s; Credo is "
              f"{floor_rate / rate:.2f}x the floor (target <= 1.5x)")

        oracle = Oracle(rows, batch_of)
        mismatches = check(store, rows, oracle, queries=args.queries, known_checks=args.known_checks, mid=mid,
                           half=half, batch_of=batch_of, rng=rng)
        total = args.queries + args.known_checks
        print(f"oracle: {total - len(mismatches)}/{total} queries agree")
        for line in mismatches[:20]:
            print(f"  MISMATCH {line}")

        timings, floor_timings = latency(store, rows, samples=args.latency, rng=rng, floor_tenant=floor_tenant,
                                         context=args.context)
        for name, samples in timings.items():
            print(f"latency {name:<9} p50 {percentile(samples, 50):6.2f} ms  p95 {percentile(samples, 95):6.2f} ms  "
                  f"mean {statistics.mean(samples) * 1000:6.2f} ms  (n={len(samples)}; target p95 <= 10 ms)")
        for name, samples in floor_timings.items():
            p50, ratio = percentile(samples, 50), percentile(timings[name], 50) / percentile(samples, 50)
            print(f"floor   {name:<9} p50 {p50:6.2f} ms  p95 {percentile(samples, 95):6.2f} ms  (Credo p50 is "
                  f"{ratio:.2f}x the floor, samples interleaved; target <= 1.5x)")
        every = [s for samples in timings.values() for s in samples]
        print(f"latency all       p50 {percentile(every, 50):6.2f} ms  p95 {percentile(every, 95):6.2f} ms")
    finally:
        if not args.keep:
            print("cleaning up the tenant ...", flush=True)
            cleanup(store)
            floor.drop(store._db, f"{tenant}_floor")
        store.close()
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
