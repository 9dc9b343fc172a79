"""Preference validation on every surface: REST (the admin turns the flag on; off, outcomes answer 503 naming the
flag; another tenant's fact answers 404 like an unknown id), MCP (an agent reports outcomes and reads the posterior)
and the CLI."""

from __future__ import annotations

import json

import anyio
from mcp.client import Client

from credo.api.mcp.server import build_server
from credo.store import Store
from tests.api.cli.test_cli import run
from tests.api.conftest import new_tenant
from tests.services.preferences.conftest import remember_preference


class _Clock:
    """A clock the helper can move (the REST app's own store reads the wall clock)."""

    def at(self, when: object) -> None:
        return None


def test_over_rest_outcomes_are_refused_until_an_admin_turns_the_flag_on(api, neo4j_db, tenant_a, tenant_b):
    h = tenant_a.headers
    store = Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False)
    preference = remember_preference(store, _Clock())
    path = f"/v1/facts/{preference.fact_id}/preference"
    refused = api.post(f"{path}/outcome", headers=h, json={"outcome": "accepted"})
    assert (refused.status_code, refused.json()["code"]) == (503, "not_configured")
    assert "preference_validation" in refused.json()["detail"], refused.json()
    assert api.get(path, headers=h).status_code == 503
    # an agent's key may not set the flag
    agent = new_tenant(neo4j_db, scopes=("agent",))
    assert api.post("/v1/tenant/flags", headers=agent.headers,
                    json={"flag": "preference_validation", "enabled": True}).status_code == 403
    turned = api.post("/v1/tenant/flags", headers=h, json={"flag": "preference_validation", "enabled": True})
    assert turned.status_code == 200 and turned.json()["result"]["enabled"] is True, turned.text
    counted = api.post(f"{path}/outcome", headers=h, json={"outcome": "revoked"})
    assert counted.status_code == 200, counted.text
    assert (counted.json()["result"]["alpha"], counted.json()["result"]["beta"]) == (1, 6)
    read = api.get(path, headers=h).json()
    assert (read["outcomes"], read["recent"]) == (1, ["revoked"])
    bad = api.post(f"{path}/outcome", headers=h, json={"outcome": "meh"})
    assert (bad.status_code, bad.json()["field"]) == (422, "outcome")
    # another tenant's key: the fact answers exactly like an unknown id
    other = tenant_b.headers
    theirs = api.post(f"{path}/outcome", headers=other, json={"outcome": "rejected"})
    unknown = api.post("/v1/facts/f_00000000000000000000/preference/outcome", headers=other,
                       json={"outcome": "rejected"})
    assert (theirs.status_code, theirs.json()["code"]) == (unknown.status_code, unknown.json()["code"]) == (
        404, "not_found")


def test_an_agent_reports_outcomes_and_reads_the_posterior_over_mcp(store, clock):
    preference = remember_preference(store, clock)
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario(calls):
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    [off] = anyio.run(scenario, [("preference_outcome", {"fact_id": preference.fact_id, "outcome": "accepted"})])
    assert off.is_error and off.structured_content["code"] == "not_configured"
    store.set_tenant_flag("preference_validation", enabled=True)
    accepted, unknown, read = anyio.run(scenario, [
        ("preference_outcome", {"fact_id": preference.fact_id, "outcome": "accepted"}),
        ("preference_outcome", {"fact_id": preference.fact_id, "outcome": "unknown"}),
        ("preference", {"fact_id": preference.fact_id})])
    assert accepted.structured_content["result"]["alpha"] == 2
    assert unknown.structured_content["result"]["outcomes"] == 1
    assert (read.structured_content["alpha"], read.structured_content["beta"], read.structured_content["strength"]) == (
        2, 1, 2 / 3)


def test_the_cli_sets_the_flag_reports_outcomes_and_shows_the_posterior(cli_env, store, clock):
    preference = remember_preference(store, clock)
    refused = run(["preference", "outcome", preference.fact_id, "accepted"], cli_env)
    assert refused.returncode == 1 and "preference_validation" in refused.stderr
    turned = run(["tenant-flag", "preference_validation", "--on"], cli_env)
    assert turned.returncode == 0 and "preference_validation: on" in turned.stdout, turned.stderr
    counted = run(["preference", "outcome", preference.fact_id, "rejected"], cli_env)
    assert counted.returncode == 0 and "Beta(1, 2)" in counted.stdout, counted.stderr
    shown = run(["preference", "show", preference.fact_id, "--json"], cli_env)
    assert shown.returncode == 0 and json.loads(shown.stdout)["recent"] == ["rejected"], shown.stderr


def test_the_flags_list_over_rest_and_the_cli_as_set_and_as_known_earlier(api, neo4j_db, tenant_a, cli_env):
    read_only = new_tenant(neo4j_db, scopes=("read",))
    listed = api.get("/v1/tenant/flags", headers=read_only.headers)
    assert listed.status_code == 200, listed.text
    assert {f["flag"]: (f["enabled"], f["known_from"]) for f in listed.json()["items"]} == {
        "preference_validation": (False, None), "attested_human_messages": (False, None)}
    assert api.post("/v1/tenant/flags", headers=read_only.headers,
                    json={"flag": "attested_human_messages", "enabled": True}).status_code == 403
    turned = api.post("/v1/tenant/flags", headers=tenant_a.headers, json={"flag": "attested_human_messages",
                                                                           "enabled": True}).json()["result"]
    now = {f["flag"]: f for f in api.get("/v1/tenant/flags", headers=tenant_a.headers).json()["items"]}
    assert (now["attested_human_messages"]["enabled"], now["attested_human_messages"]["known_from"]) == (
        True, turned["known_from"])
    earlier = api.get("/v1/tenant/flags", headers=tenant_a.headers, params={"known_at": "2000-01-01T00:00:00Z"})
    assert all(f["enabled"] is False for f in earlier.json()["items"]), earlier.text
    bad = api.get("/v1/tenant/flags", headers=tenant_a.headers, params={"known_at": "yesterday-ish"})
    assert (bad.status_code, bad.json()["field"]) == (422, "known_at")
    turned_cli = run(["tenant-flag", "preference_validation", "--on"], cli_env)
    assert turned_cli.returncode == 0, turned_cli.stderr
    shown = run(["tenant-flags"], cli_env)
    assert shown.returncode == 0 and "preference_validation: on since" in shown.stdout, shown.stderr
    assert "attested_human_messages: off (never set)" in shown.stdout
