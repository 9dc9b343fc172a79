"""Recipes on every surface: REST (with the API keys: another tenant's recipe answers 404 like an unknown id), MCP
(an agent records a recipe on a tool's own message, reports an outcome and asks for recipes) and the CLI."""

from __future__ import annotations

import json

import anyio
from mcp.client import Client

from credo.api.mcp.server import build_server
from tests.api.cli.test_cli import run

SHAPE = "rotate the TLS certificates"


def test_over_rest_a_recipe_is_recorded_used_and_served_and_another_tenants_key_sees_none(api, tenant_a, tenant_b):
    h = tenant_a.headers
    shown = api.post("/v1/sources", headers=h, json={"kind": "tool_result", "text": "certificates renewed: 3 of 3"})
    assert shown.status_code == 201, shown.text
    made = api.post("/v1/recipes", headers=h, json={"task_shape": SHAPE, "steps": ["renew", "reload nginx"],
                                                    "because": shown.json()["result"]["source_id"]})
    assert made.status_code == 200, made.text
    recipe_id = made.json()["result"]["recipe_id"]
    used = api.post(f"/v1/recipes/{recipe_id}/outcome", headers=h, json={"outcome": "success"})
    assert used.status_code == 200 and used.json()["result"]["uses"] == 1, used.text
    [served] = api.get("/v1/recipes", headers=h, params={"task_shape": "certificates: Rotate the TLS"}).json()["items"]
    assert (served["recipe_id"], served["successes"], served["state"]) == (recipe_id, 1, "live")
    # another tenant's key: nothing to see, and its reports answer exactly like an unknown id's
    other = tenant_b.headers
    assert api.get("/v1/recipes", headers=other, params={"task_shape": SHAPE}).json()["items"] == []
    for path, body in ((f"/v1/recipes/{recipe_id}/outcome", {"outcome": "failure"}),
                       (f"/v1/recipes/{recipe_id}/consent", {"accept": False})):
        theirs = api.post(path, headers=other, json=body)
        unknown = api.post(path.replace(recipe_id, "r_00000000000000000000"), headers=other, json=body)
        assert (theirs.status_code, theirs.json()["code"]) == (unknown.status_code, unknown.json()["code"]) == (
            404, "not_found")
    [still] = api.get("/v1/recipes", headers=h, params={"task_shape": SHAPE}).json()["items"]
    assert (still["uses"], still["state"]) == (1, "live")


def test_over_rest_refusals_name_the_field(api, tenant_a):
    h = tenant_a.headers
    shown = api.post("/v1/sources", headers=h, json={"kind": "observation", "text": "it worked"}).json()["result"]
    said = api.post("/v1/sources", headers=h, json={"kind": "document", "text": "a runbook"}).json()["result"]
    cases = [({"task_shape": SHAPE, "steps": [], "because": shown["source_id"]}, "steps", "invalid_input"),
             ({"task_shape": SHAPE, "steps": ["a"], "because": "s_unknown"}, "because", "evidence_refused"),
             ({"task_shape": SHAPE, "steps": ["a"], "because": said["source_id"]}, "because", "evidence_refused")]
    for body, field, code in cases:
        refused = api.post("/v1/recipes", headers=h, json=body)
        assert (refused.status_code, refused.json()["field"], refused.json()["code"]) == (422, field, code), refused.text
    made = api.post("/v1/recipes", headers=h, json={"task_shape": SHAPE, "steps": ["a"],
                                                    "because": shown["source_id"]}).json()["result"]
    bad = api.post(f"/v1/recipes/{made['recipe_id']}/outcome", headers=h, json={"outcome": "meh"})
    assert (bad.status_code, bad.json()["field"]) == (422, "outcome")
    # an agent's key alone cannot make a user-facing recipe live: the person's yes is required, and must be a person's
    asked = api.post("/v1/recipes", headers=h, json={"task_shape": SHAPE, "steps": ["a"], "user_facing": True,
                                                     "because": shown["source_id"]}).json()["result"]
    alone = api.post(f"/v1/recipes/{asked['recipe_id']}/consent", headers=h, json={"accept": True})
    assert (alone.status_code, alone.json()["code"], alone.json()["field"]) == (422, "invalid_input", "message_id")
    [own] = api.post("/v1/sessions/x/messages", headers=h, json={"messages": [
        {"index": 0, "role": "assistant", "origin": "agent", "author": "agent", "text": "Next time: a. OK?",
         "at": "2025-01-01T09:00:00+00:00"}]}).json()["result"]
    forged = api.post(f"/v1/recipes/{asked['recipe_id']}/consent", headers=h,
                      json={"accept": True, "message_id": own["source_id"]})
    assert (forged.status_code, forged.json()["code"], forged.json()["field"]) == (422, "evidence_refused", "message_id")


def test_an_agent_records_a_recipe_reports_an_outcome_and_asks_for_recipes_over_mcp(store):
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            added = await client.call_tool("add_messages", {"session_id": "s1", "messages": [
                {"index": 0, "role": "user", "origin": "human_input", "author": "alice", "text": "Rotate the certs.",
                 "at": "2025-01-01T09:00:00+00:00"},
                {"index": 1, "role": "tool", "origin": "tool_result", "author": "certbot",
                 "text": "certificates renewed", "at": "2025-01-01T09:05:00+00:00"}]})
            person, tool = added.structured_content["result"]
            refused = await client.call_tool("record_recipe", {"task_shape": SHAPE, "steps": ["renew"],
                                                               "because": person["source_id"]})
            made = await client.call_tool("record_recipe", {"task_shape": SHAPE, "steps": ["renew", "reload"],
                                                            "because": tool["source_id"]})
            recipe_id = made.structured_content["result"]["recipe_id"]
            unknown = await client.call_tool("recipe_outcome", {"recipe_id": recipe_id, "outcome": "unknown"})
            failed = await client.call_tool("recipe_outcome", {"recipe_id": recipe_id, "outcome": "failure"})
            listed = await client.call_tool("recipes", {"task_shape": "the TLS certificates rotate"})
            return refused, unknown, failed, listed

    refused, unknown, failed, listed = anyio.run(scenario)
    assert refused.is_error and (refused.structured_content["code"], refused.structured_content["field"]) == (
        "evidence_refused", "because")
    assert unknown.structured_content["result"]["uses"] == 0
    assert (failed.structured_content["result"]["uses"], failed.structured_content["result"]["successes"]) == (1, 0)
    [served] = listed.structured_content["items"]
    assert served["steps"] == ["renew", "reload"] and served["rate"] == 1 / 3


def test_the_cli_records_reports_consents_and_lists_recipes(cli_env, store):
    shown = store.add_source("observation", "the certificates were renewed")
    added = run(["recipe", "add", SHAPE, "--step", "renew", "--step", "reload", "--because", shown.source_id,
                 "--user-facing", "--json"], cli_env)
    assert added.returncode == 0, added.stderr
    recipe = json.loads(added.stdout)
    assert recipe["state"] == "pending_consent"
    assert "no live recipe" in run(["recipes", SHAPE], cli_env).stdout
    alone = run(["recipe", "consent", recipe["recipe_id"], "--accept"], cli_env)  # an agent alone consents to nothing
    assert alone.returncode == 1 and "message_id" in alone.stderr, alone.stdout + alone.stderr
    _shown, yes = store.ingest_messages("c", [
        {"index": 0, "role": "assistant", "origin": "agent", "author": "agent", "at": "2025-01-01T09:00:00+00:00",
         "text": "Next time I'll do it this way: renew; reload. OK?"},
        {"index": 1, "role": "user", "origin": "human_input", "author": "ana", "text": "Yes",
         "at": "2025-01-01T09:01:00+00:00"}])
    consented = run(["recipe", "consent", recipe["recipe_id"], "--accept", "--message", yes.source_id], cli_env)
    assert consented.returncode == 0 and "[live]" in consented.stdout, consented.stderr
    used = run(["recipe", "outcome", recipe["recipe_id"], "success"], cli_env)
    assert used.returncode == 0 and "1 of 1 uses" in used.stdout, used.stderr
    listed = run(["recipes", "rotate the tls certificates"], cli_env)
    assert "1. renew" in listed.stdout and "2. reload" in listed.stdout, listed.stdout
    refused = run(["recipe", "add", SHAPE, "--step", "x", "--because", "s_unknown"], cli_env)
    assert refused.returncode == 1 and "because" in refused.stderr
