"""The belief diff on every surface: REST (`GET /v1/diff`), credo.Client, the MCP tool `belief_diff` and
`credo diff`; the tenant comes from the key, a reversed window is refused naming the field."""

from __future__ import annotations

import json

from credo.api.cli import main
from credo.schema.diff import BeliefDiff
from tests.api.window_surfaces import cli_on_session_neo4j, corrected_over_rest, ended_lease_over_client, mcp_window

WINDOW = {"known_a": "2000-01-01", "known_b": "2100-01-01"}


def test_diff_over_rest_lists_the_keys_tenant_changes_and_refuses_a_reversed_window(api, tenant_a, tenant_b):
    # given a fact added and then corrected in tenant A
    added = corrected_over_rest(api, tenant_a)
    fact_id = added["fact_id"]
    # when A's key reads the diff, then both changes are listed, oldest first, with the correction's before and after
    answer = api.get("/v1/diff", headers=tenant_a.headers, params=WINDOW)
    assert answer.status_code == 200, answer.text
    changes = answer.json()["changes"]
    assert [(c["kind"], c["fact_id"]) for c in changes] == [("added", fact_id), ("corrected", fact_id)]
    assert changes[1]["before"]["object"] == "engineer" and changes[1]["after"][0]["object"] == "staff engineer"
    # and only the changes after known_a: from the addition's own known time, the correction alone
    since = api.get("/v1/diff", headers=tenant_a.headers,
                    params={**WINDOW, "known_a": added["known_from"]}).json()["changes"]
    assert [c["kind"] for c in since] == ["corrected"]
    # another tenant's key sees none of it
    assert api.get("/v1/diff", headers=tenant_b.headers, params=WINDOW).json()["changes"] == []
    # a reversed window, or a missing bound, is a problem naming the field
    reversed_ = api.get("/v1/diff", headers=tenant_a.headers, params={"known_a": "2025-02", "known_b": "2025-01"})
    assert reversed_.status_code == 422 and reversed_.json()["field"] == "known_b"
    missing = api.get("/v1/diff", headers=tenant_a.headers, params={"known_a": "2025-01"})
    assert missing.status_code == 422 and missing.json()["field"] == "known_b"


def test_diff_through_credo_client_is_the_stores_answer(live_server, neo4j_db):
    fact, found = ended_lease_over_client(live_server, neo4j_db, lambda client: client.diff("2000-01-01", "2100-01-01"))
    assert isinstance(found, BeliefDiff)
    assert [(c.kind.value, c.fact_id) for c in found.changes] == [("added", fact.fact_id), ("ended", fact.fact_id)]
    assert found.changes[1].after[0].valid_to.isoformat().startswith("2024-09-01")


def test_belief_diff_as_an_mcp_tool_answers_what_changed_since(store, clock):
    # given a premise and a rule resting on it, then (later) the premise retracted
    clock.at("2025-01-01")
    key = store.add_fact("payments", "signing_key", "K1", valid_from="2024-01-01")
    rule = store.add_fact("Rotate K1 before 2026", "is", "rule", depends_on=[key.fact_id], valid_from="2025-01-01")
    clock.at("2025-02-01")
    store.retract_fact(key.fact_id, reason="the key was revoked")
    tool, since, bad = mcp_window(store, "belief_diff", {"known_a": "2025-01-15", "known_b": "2025-03-01"},
                                  {"known_a": "2025-03-01", "known_b": "2025-01-15"})
    # when an agent asks what changed since mid-January, then the retraction and what went stale because of it
    assert tool.annotations.read_only_hint and "forgotten" in tool.description
    changes = since.structured_content["changes"]
    assert [(c["kind"], c["fact_id"]) for c in changes] == [("retracted", key.fact_id), ("stale", rule.fact_id)]
    assert changes[0]["reason"] == "the key was revoked" and key.fact_id in changes[1]["cause"]
    assert bad.is_error and bad.structured_content["field"] == "known_b"


def test_credo_diff_prints_each_change_from_the_command_line(store, tenant, clock, capsys, cli_env, monkeypatch):
    cli_on_session_neo4j(cli_env, monkeypatch)
    clock.at("2025-01-01")
    owner = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    clock.at("2025-02-01")
    bob = store.succeed_fact(owner.fact_id, object="Bob", at="2024-06-01")
    assert main(["--tenant", tenant, "diff", "--since", "2025-01-15", "--until", "2025-03-01"]) == 0
    out = capsys.readouterr().out
    assert "superseded" in out and owner.fact_id in out and bob.fact_id in out and "added" not in out
    # --until defaults to now; --json prints the answer's model
    assert main(["--tenant", tenant, "diff", "--since", "2024-12-31", "--json"]) == 0
    found = BeliefDiff.model_validate(json.loads(capsys.readouterr().out))
    assert [c.kind.value for c in found.changes] == ["added", "superseded"]
    assert main(["--tenant", tenant, "diff", "--since", "2025-03-01", "--until", "2025-04-01"]) == 0
    assert "nothing changed between" in capsys.readouterr().out
