"""The cascade profile harness (bench/profile_cascade.py) on the test Neo4j: a small graph, so it cannot rot."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import profile_cascade  # noqa: E402

from neo4j._sync.work.transaction import TransactionBase  # noqa: E402


def test_the_cascade_profile_reports_db_hits_for_every_statement_it_sends(neo4j_info, monkeypatch, capsys):
    # given the harness pointed at the test server, on a graph of 30 dependents
    for name, value in (("NEO4J_URI", neo4j_info.uri), ("NEO4J_USER", neo4j_info.user),
                        ("NEO4J_PASSWORD", neo4j_info.password), ("NEO4J_DATABASE", neo4j_info.database)):
        monkeypatch.setenv(name, value)
    sent: list[str] = []
    run = TransactionBase.run

    def noting(self, query, parameters=None, **kwargs):
        sent.append(query)
        return run(self, query, parameters, **kwargs)

    monkeypatch.setattr(TransactionBase, "run", noting)
    # when one end_fact is profiled and one timed
    assert profile_cascade.main(["--dependents", "30", "--runs", "1", "--timed", "1"]) == 0
    out = capsys.readouterr().out
    profiled, timed = out.split("run 1 (unprofiled)")
    # then every profiled statement names its db hits, none of them zero, and the total is theirs
    lines = re.findall(r"^  (\w+) +([\d,]+) db hits", profiled, re.MULTILINE)
    assert {"read_dependents_level", "finish_write_flagging"} <= {name for name, _ in lines}
    assert all(int(hits.replace(",", "")) > 0 for _, hits in lines), lines
    # and the timed run shows no db hits it did not measure
    assert "db hits" not in timed
    # and what was profiled is the text the service sends (comment lines dropped), so the timed run reuses its plans
    profiled_texts = [t for t in sent if t.startswith("PROFILE ")]
    assert profiled_texts and not any("\n//" in t or t.startswith("PROFILE //") for t in profiled_texts)
