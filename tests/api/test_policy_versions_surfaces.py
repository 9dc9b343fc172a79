"""The write policy's versions on their surfaces: REST (`GET /v1/policy/versions`: newest first, the defaults last,
set by the acting key whatever a body says, paged by `after`, a read-scoped key lists, another tenant's key sees only
its own, an unknown `after` refused naming it), the CLI (`credo policy versions`), and MCP (no tool: an operator's
audit, the registry says why)."""

from __future__ import annotations

import json
from datetime import datetime

from credo.api.mcp.server import TOOLS
from credo.schema.operations import BY_NAME
from tests.api.cli.test_cli import run
from tests.api.conftest import new_tenant

FIRST = {"semantic": {"visible": "logged"}}
SECOND = {"semantic": {"visible": "logged"}, "procedural": {"earns": "never"}}


def test_over_rest_the_versions_list_newest_first_set_by_the_acting_key_paged_by_after(api, tenant_a, tenant_b):
    h = tenant_a.headers
    # a body naming another actor is refused: who set a version is the key's principal, never the request's word
    spoofed = api.post("/v1/policy", headers=h, json={"policy": FIRST, "actor": "key:someone-else"})
    assert (spoofed.status_code, spoofed.json()["field"]) == (422, "actor"), spoofed.text
    first = api.post("/v1/policy", headers=h, json={"policy": FIRST}).json()["result"]
    second = api.post("/v1/policy", headers=h, json={"policy": SECOND}).json()["result"]
    listed = api.get("/v1/policy/versions", headers=h)
    assert listed.status_code == 200, listed.text
    items = listed.json()["items"]
    assert [v["policy_id"] for v in items] == [second["policy_id"], first["policy_id"], "default"]
    assert [v["set_by"] for v in items] == [f"key:{tenant_a.key_id}"] * 2 + [None]
    assert items[1]["known_to"] == items[0]["known_from"] and items[0]["known_to"] is None
    assert items[0]["changes"] == [{"kind": "procedural", "field": "earns", "before": None, "after": "never"}]
    assert items[0]["plans"]["procedural"] is None and items[1]["plans"]["semantic"]["visible"] == "logged"
    # one version a page, by `after`
    page = api.get("/v1/policy/versions", headers=h, params={"limit": 1}).json()
    assert [v["policy_id"] for v in page["items"]] == [second["policy_id"]] and page["next_after"] == second["policy_id"]
    page = api.get("/v1/policy/versions", headers=h, params={"limit": 1, "after": page["next_after"]}).json()
    assert [v["policy_id"] for v in page["items"]] == [first["policy_id"]]
    # another tenant's key lists only its own defaults, and cannot start after this tenant's version
    assert [v["policy_id"] for v in api.get("/v1/policy/versions", headers=tenant_b.headers).json()["items"]] == [
        "default"]
    foreign = api.get("/v1/policy/versions", headers=tenant_b.headers, params={"after": first["policy_id"]})
    assert (foreign.status_code, foreign.json()["field"]) == (422, "after"), foreign.text


def test_over_rest_a_read_scoped_key_lists_the_versions_and_bad_paging_is_refused_naming_the_field(api, neo4j_db):
    reader = new_tenant(neo4j_db, scopes=("read",), clearance="public")
    listed = api.get("/v1/policy/versions", headers=reader.headers)
    assert listed.status_code == 200 and [v["policy_id"] for v in listed.json()["items"]] == ["default"], listed.text
    unknown = api.get("/v1/policy/versions", headers=reader.headers, params={"after": "wp_unknown"})
    assert (unknown.status_code, unknown.json()["code"], unknown.json()["field"]) == (422, "invalid_input", "after")
    too_many = api.get("/v1/policy/versions", headers=reader.headers, params={"limit": 5_000})
    assert (too_many.status_code, too_many.json()["field"]) == (422, "limit"), too_many.text
    assert api.get("/v1/policy/versions").status_code == 401


def test_the_cli_lists_the_versions_with_who_set_each_and_what_changed(cli_env, tmp_path):
    shown = run(["policy", "versions"], cli_env)
    assert shown.returncode == 0 and "default  never set: DESIGN §9's defaults" in shown.stdout, shown.stderr
    file = tmp_path / "policy.json"
    for policy in (FIRST, SECOND):
        file.write_text(json.dumps(policy), encoding="utf-8")
        assert run(["policy", "set", str(file)], cli_env).returncode == 0
    listed = json.loads(run(["policy", "versions", "--json"], cli_env).stdout)
    newest, oldest = listed["items"][0], listed["items"][1]
    assert newest["set_by"].startswith("local:") and listed["items"][2]["policy_id"] == "default"
    since = {v["policy_id"]: datetime.fromisoformat(v["known_from"]).isoformat() for v in listed["items"][:2]}
    shown = run(["policy", "versions", "--limit", "1"], cli_env)
    assert shown.returncode == 0, shown.stderr
    assert f"{newest['policy_id']}  known from {since[newest['policy_id']]} (in force)  set by {newest['set_by']}" in (
        shown.stdout)
    assert "  procedural.earns: default -> never" in shown.stdout
    assert f"more: --after {newest['policy_id']}" in shown.stdout
    shown = run(["policy", "versions", "--after", newest["policy_id"], "--limit", "1"], cli_env)
    assert f"{oldest['policy_id']}  known from {since[oldest['policy_id']]} to {since[newest['policy_id']]}" in (
        shown.stdout)
    assert "  semantic.visible: default -> logged" in shown.stdout
    refused = run(["policy", "versions", "--after", "wp_unknown"], cli_env)
    assert refused.returncode == 1 and "after" in refused.stderr and "wp_unknown" in refused.stderr


def test_no_agent_tool_lists_the_versions_and_the_registry_says_why():
    assert "write_policy_versions" not in {spec.operation for spec in TOOLS}
    assert "operator's audit" in BY_NAME["write_policy_versions"].mcp_reason
    assert BY_NAME["write_policy_versions"].scope == BY_NAME["write_policy"].scope == "read"
