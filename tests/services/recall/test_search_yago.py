"""Search at a past valid time on real data: YAGO11k (all of it) against the oracle of bench/bench_bitemporal.py.

500 questions "<relation> <object>" at `valid_at=T` (random days and the boundary days start-1 / start / end-1 /
end of a random fact), limit 50. Precision: every hit stating the asked relation of the asked object is one of the
oracle's holders at T (dated, or undated and not ended — served apart and marked). Recall: the share of the
oracle's holders found among the hits (of at most 50 per question). Skipped when ../shared/datasets is absent."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from credo.graph.facts.entities import normalise
from credo.schema.names import normalise_predicate

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_bitemporal.py"


@pytest.fixture(scope="module")
def yago():
    """The benchmark module: its loader and its oracle."""
    spec = importlib.util.spec_from_file_location("bench_bitemporal", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_500_yago_questions_at_a_past_valid_time_have_precision_1_and_recall_of_at_least_099(yago, store, datasets):
    # given all of YAGO11k, every relation multi-valued
    rows, _counts = yago.load_yago(datasets / "yago11k")
    for rel in sorted({r.predicate for r in rows}):
        store.define_predicate(rel, cardinality="multi")
    for i in range(0, len(rows), 2000):
        store.add_facts([{"subject": r.subject, "predicate": r.predicate, "object": r.object,
                          "valid_from": r.valid_from, "valid_to": r.valid_to} for r in rows[i:i + 2000]])
    oracle = yago.Oracle(rows, [0] * len(rows))
    rng = random.Random(11)
    dated = [r for r in rows if r.start is not None]
    wrong, found, wanted = [], 0, 0
    # when 500 questions "<relation> <object>" are asked at random days and boundary days, limit 50
    for _ in range(500):
        row = rng.choice(dated)
        at, _kind = yago.pick_point(rng, row)
        holders = oracle.holders(row.predicate, row.object, at) | oracle.holders(row.predicate, row.object, at,
                                                                                 undated=True)
        hits = store.search(f"{row.predicate} {row.object}", valid_at=at, kinds=["fact"], limit=50).hits
        target = (normalise_predicate(row.predicate), normalise(row.object))
        got = {yago.fact_key(h.fact) for h in hits if (h.fact.predicate, normalise(h.fact.object_name)) == target}
        wrong += [(row.predicate, row.object, at.date(), k) for k in got - holders]
        found += len(got & holders)
        wanted += min(len(holders), 50)
    # then nothing served was not valid then, and at least 99 % of the holders were found
    assert wrong == []
    assert found / wanted >= 0.99, f"recall {found / wanted:.4f} ({found}/{wanted})"
