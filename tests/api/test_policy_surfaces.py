"""The write policy on its surfaces: REST (set and show, the admin scope enforced, a bad document refused naming the
field, another tenant's key sees only its own policy), the CLI (credo policy set FILE.json, credo policy show), and
MCP (no tool: an operator's decision, not an agent's)."""

from __future__ import annotations

import json

from credo.api.mcp.server import TOOLS
from credo.schema.operations import BY_NAME
from tests.api.cli.test_cli import run
from tests.api.conftest import new_tenant

POLICY = {"episodic": {"ttl": {"default": "P30D", "chat": "PT24H"}}, "semantic": {"visible": "logged"}}


def test_over_rest_an_admin_sets_the_policy_and_a_reader_shows_it_as_of_then(api, tenant_a, tenant_b, neo4j_db):
    h = tenant_a.headers
    before = api.get("/v1/policy", headers=h)
    assert before.status_code == 200 and before.json()["policy_id"] == "default", before.text
    made = api.post("/v1/policy", headers=h, json={"policy": POLICY})
    assert made.status_code == 200, made.text
    stored = made.json()["result"]
    assert stored["policy_id"].startswith("wp_") and stored["policy"]["semantic"]["visible"] == "logged"
    shown = api.get("/v1/policy", headers=h).json()
    assert (shown["policy_id"], shown["known_from"]) == (stored["policy_id"], stored["known_from"])
    earlier = api.get("/v1/policy", headers=h, params={"known_at": "2020-01-01T00:00:00Z"}).json()
    assert earlier["policy_id"] == "default"
    # a fact written now names the policy in its why
    fact = api.post("/v1/facts", headers=h, json={"subject": "Ana", "predicate": "prefers", "object": "tea"})
    why = api.get(f"/v1/facts/{fact.json()['result']['fact_id']}/why", headers=h).json()
    assert (why["write_plan"]["policy"], why["write_plan"]["visible"]) == (stored["policy_id"], "logged")
    # another tenant's key sees its own (default) policy
    assert api.get("/v1/policy", headers=tenant_b.headers).json()["policy_id"] == "default"


def test_over_rest_a_write_scoped_key_may_read_the_policy_but_not_set_it(api, neo4j_db):
    writer = new_tenant(neo4j_db, scopes=("read", "write", "curate"))
    refused = api.post("/v1/policy", headers=writer.headers, json={"policy": {"episodic": {"earns": "never"}}})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden"), refused.text
    assert api.get("/v1/policy", headers=writer.headers).json()["policy_id"] == "default"


def test_over_rest_a_bad_policy_is_refused_naming_the_field_and_the_rule(api, tenant_a):
    bad = api.post("/v1/policy", headers=tenant_a.headers, json={"policy": {"episodic": {"ttl": {"chat": "PT1H"}}}})
    assert (bad.status_code, bad.json()["code"]) == (422, "invalid_input"), bad.text
    assert bad.json()["field"].startswith("policy.episodic.ttl") and '"default" entry' in bad.json()["rule"]
    assert api.get("/v1/policy", headers=tenant_a.headers).json()["policy_id"] == "default"


def test_over_rest_a_kind_given_no_slot_is_refused_naming_it(api, tenant_a):
    h = tenant_a.headers
    stored = api.post("/v1/policy", headers=h, json={"policy": {"episodic": {"earns": "never"}}}).json()["result"]
    refused = api.post("/v1/facts", headers=h, json={"subject": "Ana", "predicate": "saw", "object": "rain",
                                                     "kind": "episodic"})
    assert (refused.status_code, refused.json()["field"]) == (422, "kind"), refused.text
    assert "episodic" in refused.json()["rule"] and stored["policy_id"] in refused.json()["rule"]


def test_the_cli_sets_the_policy_from_a_file_and_shows_it(cli_env, tmp_path):
    shown = run(["policy", "show"], cli_env)
    assert shown.returncode == 0 and "write policy default" in shown.stdout, shown.stderr
    assert "semantic   earns: a source backs it; written reflection; invalidated by source; surfaced" in shown.stdout
    file = tmp_path / "policy.json"
    file.write_text(json.dumps(POLICY), encoding="utf-8")
    made = run(["policy", "set", str(file), "--json"], cli_env)
    assert made.returncode == 0, made.stderr
    stored = json.loads(made.stdout)
    shown = run(["policy", "show"], cli_env)
    assert f"write policy {stored['policy_id']}" in shown.stdout
    assert "semantic   earns: a source backs it; written reflection; invalidated by source; logged" in shown.stdout
    assert "episodic TTL per workflow: default P30D, chat PT24H" in shown.stdout
    earlier = run(["policy", "show", "--known-at", "2020-01-01T00:00:00Z", "--json"], cli_env)
    assert json.loads(earlier.stdout)["policy_id"] == "default"
    file.write_text(json.dumps({"semantic": {"ttl": {"default": "P1D"}}}), encoding="utf-8")
    refused = run(["policy", "set", str(file)], cli_env)
    assert refused.returncode == 1 and "policy.semantic" in refused.stderr and "only episodic" in refused.stderr
    missing = run(["policy", "set", str(tmp_path / "none.json")], cli_env)
    assert missing.returncode == 1 and "file" in missing.stderr


def test_no_agent_tool_sets_or_reads_the_policy_and_the_registry_says_why():
    assert not [spec.operation for spec in TOOLS if "policy" in spec.operation]
    assert "operator's decision" in BY_NAME["set_write_policy"].mcp_reason
