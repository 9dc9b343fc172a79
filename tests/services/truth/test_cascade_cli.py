"""`credo stale` / `credo reverify` / `credo rebuild` against the test tenant."""

from __future__ import annotations

from credo.api.cli import main


def test_stale_lists_a_flagged_rule_and_reverify_lapses_it_from_the_command_line(store, tenant, clock, capsys,
                                                                                 cli_env, monkeypatch):
    for key, value in cli_env.items():
        if key.startswith("NEO4J_"):
            monkeypatch.setenv(key, value)  # the command must talk to the session's Neo4j, never start its own
    p = store.add_fact("API v1", "status", "live", valid_from="2024-01-01")
    r = store.add_fact("customer_legacy", "must_not", "be dropped", valid_from="2024-01-01", depends_on=[p.fact_id])
    s = store.add_summary("notes", derived_from=[r.fact_id])
    store.retract_fact(p.fact_id, reason="v1 was never live")
    assert main(["--tenant", tenant, "stale"]) == 0
    listed = capsys.readouterr().out
    assert r.fact_id in listed and s.summary_id in listed and "stopped being believed: retraction" in listed
    assert main(["--tenant", tenant, "reverify", r.fact_id, "--outcome", "lapsed", "--note", "v1 is gone"]) == 0
    assert "no longer applies because v1 is gone" in capsys.readouterr().out
    # its only input lapsed: the rebuild has nothing served to build from, so the summary stays stale, saying why
    assert main(["--tenant", tenant, "rebuild", s.summary_id]) == 0
    assert "[stale] notes" in capsys.readouterr().out
    assert main(["--tenant", tenant, "stale"]) == 0
    listed = capsys.readouterr().out
    assert f"fact    {r.fact_id}" not in listed and f"summary {s.summary_id}" in listed
    assert "no input is served any more" in listed


def test_maintain_flags_a_rule_whose_premise_has_ended_from_the_command_line(store, tenant, capsys, cli_env,
                                                                             monkeypatch):
    for key, value in cli_env.items():
        if key.startswith("NEO4J_"):
            monkeypatch.setenv(key, value)
    # the fixture's clock is in 2025; the command runs on the wall clock, after the premise's end
    p = store.add_fact("API v1", "status", "live", valid_from="2024-01-01", valid_to="2025-06-01")
    r = store.add_fact("customer_legacy", "must_not", "be dropped", valid_from="2024-01-01", depends_on=[p.fact_id])
    assert store.stale() == []
    assert main(["--tenant", tenant, "maintain"]) == 0
    out = capsys.readouterr().out
    assert r.fact_id in out and "valid time ended at 2025-06-01" in out
    assert [i.id for i in store.stale()] == [r.fact_id]
    assert main(["--tenant", tenant, "maintain"]) == 0
    assert "nothing rests on" in capsys.readouterr().out
