"""As-of reads on real data: the first 300 YAGO11k facts agree with a brute-force oracle (bench/bench_bitemporal.py)."""

from __future__ import annotations

import importlib.util
import random
import sys
from datetime import timedelta
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_bitemporal.py"
DAY = timedelta(days=1)


@pytest.fixture(scope="module")
def yago():
    """The benchmark module (its loader and oracle are what this test checks the store against)."""
    spec = importlib.util.spec_from_file_location("bench_bitemporal", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses resolve their annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def keys(facts, yago):
    return {yago.fact_key(f) for f in facts}


def test_yago_dates_keep_their_precision_and_unknown_parts_stay_unknown(yago):
    assert yago.yago_date("1998-05-12") == "1998-05-12"
    assert yago.yago_date("1998-05-##") == "1998-05"
    assert yago.yago_date("1998-##-##") == "1998"
    assert yago.yago_date("360-##-##") == "0360"
    for unknown in ("####-##-##", "19##-##-##", "-405-##-##", "307-13047-09", "1963-64-65"):
        assert yago.yago_date(unknown) is None


def test_first_300_yago_facts_read_as_of_any_point_agree_with_the_oracle(yago, store, clock, datasets):
    # given the first 300 rows, loaded in two batches, with every relation multi-valued
    rows, counts = yago.load_yago(datasets / "yago11k", limit=300)
    assert counts["read"] == 300 and len(rows) == 300 - counts["skipped_end_equals_start"] - counts["skipped_end_before_start"]
    for rel in sorted({r.predicate for r in rows}):
        store.define_predicate(rel, cardinality="multi")
    half = len(rows) // 2
    store.add_facts([_fields(r) for r in rows[:half]])
    mid = clock.at("2025-06-01")
    clock.at("2025-07-01")
    store.add_facts([_fields(r) for r in rows[half:]])
    oracle = yago.Oracle(rows, [0] * half + [1] * (len(rows) - half))
    rng = random.Random(11)
    dated = [r for r in rows if r.start is not None]

    # when 100 holders / relations queries are asked at random dates and at the boundaries of random facts
    for n in range(100):
        row = rng.choice(dated)
        at = [row.start - DAY, row.start, (row.end or row.start) - DAY, row.end or row.start,
              row.start + timedelta(days=rng.randint(0, 3000))][n % 5]
        # then the store agrees with the oracle, as believed now
        # (the dated answer and, apart from it, the undated facts that may hold at the point)
        found = store.holders(row.predicate, row.object, valid_at=at)
        assert keys(found.dated, yago) == oracle.holders(row.predicate, row.object, at)
        assert keys(found.undated, yago) == oracle.holders(row.predicate, row.object, at, undated=True)
        rels = store.relations(row.subject, valid_at=at)
        assert {yago.fact_key(r.fact) for r in rels.dated} == oracle.relations(row.subject, at), (row, at)
        assert {yago.fact_key(r.fact) for r in rels.undated} == oracle.relations(row.subject, at, undated=True)
        # and, as believed before the second batch, facts of that batch are absent
        if n % 10 == 0:
            got = store.holders(row.predicate, row.object, valid_at=at, known_at=mid)
            assert keys(got.dated, yago) == oracle.holders(row.predicate, row.object, at, before_batch=1)
            assert keys(got.undated, yago) == oracle.holders(row.predicate, row.object, at, before_batch=1, undated=True)


def test_undated_yago_facts_are_never_in_the_dated_answer_but_are_read_apart_as_undated(yago, store, datasets):
    rows, _ = yago.load_yago(datasets / "yago11k")
    undated = next(r for r in rows if r.start is None)
    store.define_predicate(undated.predicate, cardinality="multi")
    store.add_facts([_fields(undated)])
    found = store.facts(undated.subject, undated.predicate, valid_at="2000-01-01")
    assert found.dated == []
    assert [(f.object_name, f.valid_from, f.undated) for f in found.undated] == [(undated.object, None, True)]
    assert store.facts(undated.subject, undated.predicate, valid_at="2000-01-01", include_undated=False) == []


def _fields(row):
    return {"subject": row.subject, "predicate": row.predicate, "object": row.object,
            "valid_from": row.valid_from, "valid_to": row.valid_to}
