"""The transition check on every surface: REST (`GET /v1/transition`), the MCP tool `check_transition` (an agent
checks its own writes) and `credo transition`; the tenant comes from the key, a reversed window is refused naming
the field, and the CLI exits 1 when a dimension fails."""

from __future__ import annotations

import json

from credo.api.cli import main
from credo.schema.time import parse_instant
from credo.schema.transition import TransitionReport
from tests.api.window_surfaces import cli_on_session_neo4j, corrected_over_rest, ended_lease_over_client, mcp_window

WINDOW = {"known_before": "2000-01-01", "known_after": "2100-01-01"}


def test_transition_over_rest_judges_the_keys_writes_and_refuses_a_reversed_window(api, tenant_a, tenant_b):
    # given an operator's direct write in tenant A, then its correction
    fact_id = corrected_over_rest(api, tenant_a)["fact_id"]
    # when A's key checks the window, then both writes are covered and preserved, and the direct write is reported
    # ungrounded without failing
    answer = api.get("/v1/transition", headers=tenant_a.headers, params=WINDOW)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["ok"] and body["coverage"]["ok"] and body["preservation"]["ok"] and body["faithfulness"]["ok"]
    assert body["events"] == 2 and body["coverage"]["checked"] == 3 and body["complete"]
    assert {(f["kind"], f["fact_id"]) for f in body["faithfulness"]["findings"]} == {("ungrounded", fact_id)}
    # strict: the ungrounded write fails faithfulness
    strict = api.get("/v1/transition", headers=tenant_a.headers, params={**WINDOW, "strict": "true"}).json()
    assert not strict["ok"] and not strict["faithfulness"]["ok"]
    # another tenant's key sees none of it
    other = api.get("/v1/transition", headers=tenant_b.headers, params=WINDOW).json()
    assert other["events"] == 0 and other["changes"] == 0 and fact_id not in json.dumps(other)
    # a reversed window, or a missing bound, is a problem naming the field
    reversed_ = api.get("/v1/transition", headers=tenant_a.headers,
                        params={"known_before": "2025-02", "known_after": "2025-01"})
    assert reversed_.status_code == 422 and reversed_.json()["field"] == "known_after"
    missing = api.get("/v1/transition", headers=tenant_a.headers, params={"known_before": "2025-01"})
    assert missing.status_code == 422 and missing.json()["field"] == "known_after"


def test_check_transition_as_an_mcp_tool_lets_an_agent_check_its_own_writes(store, clock):
    clock.at("2025-01-01")
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    clock.at("2025-01-02")
    store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-01-01")
    conflict = store.conflicts()[0]
    clock.at("2025-01-04")
    store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-08-01")
    tool, found, bad = mcp_window(store, "check_transition",
                                  {"known_before": "2025-01-03", "known_after": "2025-01-05"},
                                  {"known_before": "2025-01-05", "known_after": "2025-01-03"})
    assert tool.annotations.read_only_hint and "preservation" in tool.description
    report = TransitionReport.model_validate(found.structured_content)
    assert report.ok and report.events == 1 and report.coverage.checked == 1
    assert bad.is_error and bad.structured_content["field"] == "known_after"


def test_credo_transition_prints_each_dimension_and_exits_1_on_a_break(store, tenant, clock, capsys, cli_env,
                                                                        monkeypatch, neo4j_db):
    cli_on_session_neo4j(cli_env, monkeypatch)
    clock.at("2025-01-01")
    fact = store.add_fact("Office lease", "held_by", "Acme", valid_from="2024-01-01")
    clock.at("2025-01-03")
    store.end_fact(fact.fact_id, at="2024-09-01")
    # the window holds: exit 0, the three dimensions, the direct write listed as ungrounded
    assert main(["--tenant", tenant, "transition", "--before", "2025-01-02", "--after", "2025-01-04"]) == 0
    out = capsys.readouterr().out
    assert "coverage      ok" in out and "preservation  ok" in out and "faithfulness  ok" in out
    # a version closed behind the service's back inside the window: exit 1 and the fact named
    other = store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01")
    neo4j_db._driver.execute_query(
        "MATCH (f:Fact {version_id: $v}) SET f.known_to = $at, f.ended_by = 'retraction'",
        {"v": other.version_id, "at": parse_instant("2025-01-03T12:00:00Z", "at")}, database_=neo4j_db.database)
    assert main(["--tenant", tenant, "transition", "--before", "2025-01-02", "--after", "2025-01-04"]) == 1
    out = capsys.readouterr().out
    assert "preservation  FAILED" in out and other.fact_id in out and "unexplained" in out
    # --json prints the report's model
    assert main(["--tenant", tenant, "transition", "--before", "2025-01-02", "--after", "2025-01-04", "--json"]) == 1
    report = TransitionReport.model_validate(json.loads(capsys.readouterr().out))
    assert [f.fact_id for f in report.preservation.findings] == [other.fact_id]


def test_check_transition_through_credo_client_is_the_stores_answer(live_server, neo4j_db):
    fact, found = ended_lease_over_client(
        live_server, neo4j_db, lambda client: client.check_transition("2000-01-01", "2100-01-01", strict=True))
    assert isinstance(found, TransitionReport)
    assert found.coverage.ok and found.preservation.ok and not found.faithfulness.ok and not found.ok
    assert [f.fact_id for f in found.faithfulness.findings] == [fact.fact_id]
