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
    assert main(["--tenant", tenant, "rebuild", s.summary_id]) == 0
    assert "[active] notes" in capsys.readouterr().out
    assert main(["--tenant", tenant, "stale"]) == 0
    assert "nothing awaits" in capsys.readouterr().out
