"""Consent to a surfaced write on every surface (issue 27 item 1, DESIGN §9): REST (remember answers the line to
show; the fact is not served until POST /v1/facts/{id}/consent with the person's yes; a reader key may not consent),
MCP (an agent remembers, sees `surface`, relays the person's answer with the consent tool) and the CLI
(`credo consent FACT_ID delete`)."""

from __future__ import annotations

from datetime import datetime, timezone

import json

import anyio
from mcp.client import Client

from credo.api.mcp.server import build_server
from credo.services.access import api_keys
from tests.api.cli.test_cli import run
from tests.api.conftest import Tenant, new_tenant
from tests.messages import messages

CLAIM = "Ana leads the billing team"


_msg = messages(datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc), "ana", iso=True)


def _served(package, fact_id):
    return any(i["fact"]["fact_id"] == fact_id for i in package["current"])


def test_over_rest_a_surfaced_remember_is_served_only_after_consent_and_scopes_apply(api, neo4j_db):
    tenant = new_tenant(neo4j_db, clearance="all")  # `all`: to read the audit ledger
    h = tenant.headers
    api.post("/v1/sessions/s1/messages", headers=h, json={"messages": [_msg(0, "Ana leads the billing team.")]})
    made = api.post("/v1/sessions/s1/remember", headers=h, json={"quote": CLAIM, "content": CLAIM,
                                                                  "valid_from": "2025-01-01"})
    assert made.status_code in (200, 201), made.text
    fact = made.json()["result"]
    assert fact["surface"] == f"I will remember that: {CLAIM}" and fact["state"] == "candidate"
    package = api.get("/v1/context", headers=h, params={"query": "Ana"}).json()
    assert not _served(package, fact["fact_id"])
    assert [i["open_kind"] for i in package["open"] if i["fact"]["fact_id"] == fact["fact_id"]] == ["awaiting_consent"]
    sources = api.post("/v1/sessions/s1/messages", headers=h, json={"messages": [
        _msg(1, "I will remember that: " + CLAIM, "agent", "assistant", "agent"), _msg(2, "Yes.")]}).json()["result"]
    yes = sources[-1]["source_id"]
    # a reader key may not consent (scope write)
    made_key = api_keys.create_key(neo4j_db, tenant=tenant.name, name="reader", scopes=["reader"], clearance="all")
    reader = Tenant(name=tenant.name, key=made_key.secret, key_id=made_key.key.key_id)
    refused = api.post(f"/v1/facts/{fact['fact_id']}/consent", headers=reader.headers,
                       json={"decision": "accept", "message_id": yes})
    assert refused.status_code == 403, refused.text
    # the agent's own message is no consent: 422 naming message_id
    own = api.post(f"/v1/facts/{fact['fact_id']}/consent", headers=h,
                   json={"decision": "accept", "message_id": sources[0]["source_id"]})
    assert own.status_code == 422 and "message_id" in own.text
    done = api.post(f"/v1/facts/{fact['fact_id']}/consent", headers=h, json={"decision": "accept", "message_id": yes})
    assert done.status_code == 200, done.text
    assert done.json()["result"]["fact"]["state"] == "active"
    assert _served(api.get("/v1/context", headers=h, params={"query": "Ana"}).json(), fact["fact_id"])
    page = api.get("/v1/audit", headers=h, params={"operation": "consent"})
    assert page.status_code == 200, page.text
    events = page.json()["items"]
    assert [(e["subject_id"], e["detail"]["decision"]) for e in events] == [(fact["fact_id"], "accept")]


def test_over_mcp_an_agent_shows_the_line_and_relays_the_persons_yes(store):
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            await client.call_tool("add_messages", {"session_id": "s1", "messages": [_msg(0, "Ana leads the billing team.")]})
            made = await client.call_tool("remember", {"session_id": "s1", "quote": CLAIM, "content": CLAIM,
                                                       "valid_from": "2025-01-01"})
            added = await client.call_tool("add_messages", {"session_id": "s1", "messages": [
                _msg(1, made.structured_content["result"]["surface"], "agent", "assistant", "agent"),
                _msg(2, "Yes, remember it.")]})
            yes = added.structured_content["result"][-1]["source_id"]
            fact_id = made.structured_content["result"]["fact_id"]
            done = await client.call_tool("consent", {"fact_id": fact_id, "decision": "accept", "message_id": yes})
            package = await client.call_tool("context", {"query": "Ana"})
            return made, done, package

    made, done, package = anyio.run(scenario)
    assert not made.is_error and not done.is_error, (made.content, done.content)
    assert made.structured_content["result"]["surface"] == f"I will remember that: {CLAIM}"
    assert done.structured_content["fact"]["state"] == "active"
    found = package.structured_content
    assert _served(found.get("result", found), done.structured_content["fact_id"])


def test_the_cli_deletes_a_fact_awaiting_consent(cli_env, store):
    store.ingest_messages("s1", [_msg(0, "Ana leads the billing team.")])
    fact = store.remember("s1", CLAIM, CLAIM)
    deleted = run(["consent", fact.fact_id, "delete", "--json"], cli_env)
    assert deleted.returncode == 0, deleted.stderr
    answer = json.loads(deleted.stdout)
    assert answer["decision"] == "delete" and answer["forgotten"]["report"]["complete"] is True
    assert store.verify_forgotten(fact.fact_id).complete
    again = run(["consent", fact.fact_id, "delete"], cli_env)
    assert again.returncode == 1 and fact.fact_id in again.stderr
