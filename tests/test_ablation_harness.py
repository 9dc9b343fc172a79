"""The ablation harness (bench/ablation.py) on the test Neo4j: a handful of cases, so it cannot rot."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from ablation import CONFIGS, run_config  # noqa: E402
from ablation_cases import CASES  # noqa: E402

from credo.services.adapters.embeddings import default_embedder  # noqa: E402

PICKED = ["plain-00", "semantic-00", "conflict-succession-00", "conflict-overwrite-00", "stale-00", "stale-01",
          "poison-task-00", "poison-self-00"]


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def test_a_handful_of_ablation_cases_pass_in_the_full_configuration(neo4j_db, embedder):
    # given one case of each kind, written into a fresh tenant with full governance and every search path
    cases = [c for c in CASES if c.name in PICKED]
    full = next(c for c in CONFIGS if c.name == "full")
    # when each question is asked, then every answer is right
    outcomes = run_config(neo4j_db, embedder, full, cases)
    assert [(o.case.name, o.why) for o in outcomes if not o.passed] == []
    # and the poisoning was refused at the gate, not filtered afterwards
    assert all(o.refused for o in outcomes if o.case.category == "poisoning")


def test_without_governance_the_conflict_stale_and_poisoning_cases_fail(neo4j_db, embedder):
    # given the same governed cases written with no gate, no conflict rule and no served filter
    cases = [c for c in CASES if c.name in PICKED and c.category in ("conflict", "stale", "poisoning")
             and c.name != "conflict-succession-00"]
    none = next(c for c in CONFIGS if c.name == "no_governance")
    outcomes = run_config(neo4j_db, embedder, none, cases)
    # then each serves what governance would have kept out
    assert [o.case.name for o in outcomes if o.passed] == []
    assert all("served" in o.why for o in outcomes)
