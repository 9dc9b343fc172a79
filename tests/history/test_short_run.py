"""Issue 28: the short history run — concurrent clients over HTTP against two `credo serve` on a private Neo4j,
a serve process and the Neo4j process each killed with SIGKILL during the load, then the whole history checked.

About 60 s of load, bounded to about 4 minutes in all on a busy 2-core machine (Neo4j start and one restart after
-9, two serve starts). The Neo4j is a private local instance (never the session's shared one: other tests use it).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.history.checker import check  # noqa: E402
from bench.history.records import WRITES, load_final, load_ops  # noqa: E402
from bench.history.run import run  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(scope="module")
def short_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("history")
    # the serve kill first (its restart is quick), the Neo4j kill 30 s after the first: both inside the 60 s of load
    outcome = run(seconds=60, clients=8, tenants=2, seed=28, out=out, private=True, first_fault_s=5,
                  gap_s=(30.0, 30.0), pause_s=(1.0, 2.0), shuffle=False)
    return outcome


def test_the_short_run_kills_a_serve_process_and_the_neo4j_process_each_at_least_once(short_run):
    kinds = [f.kind for f in short_run.faults]
    assert "serve" in kinds and "neo4j" in kinds, short_run.faults
    assert all(f.back_at is not None and f.back_at > f.killed_at for f in short_run.faults)


def test_the_short_run_records_a_well_formed_history(short_run):
    ops = short_run.ops
    assert ops == load_ops(short_run.out / "history.jsonl")
    assert load_final(short_run.out / "final.json") == short_run.final
    assert len({op.id for op in ops}) == len(ops)
    assert all(op.completed is None or op.invoked <= op.completed for op in ops)
    assert all(op.completed is not None for op in ops)  # every client stopped after its answer or its timeout
    writes = [op for op in ops if op.kind in WRITES and op.outcome == "ok"]
    assert writes and all(op.known_at is not None for op in writes if op.kind != "forget")
    assert all(op.known_at is None or op.invoked <= op.known_at <= op.completed for op in writes)
    reads = [op for op in ops if op.kind == "read" and op.outcome == "ok"]
    assert reads and any(op.rows for op in reads)
    assert {op.outcome for op in ops} >= {"ok", "unknown"}  # the faults cut answers off
    assert all(op.code for op in ops if op.outcome != "ok")


def test_the_short_run_has_no_violation(short_run):
    violations = check(short_run.ops, short_run.final)
    assert violations == [], "\n".join(str(v) for v in violations)
