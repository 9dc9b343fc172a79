"""Evidence by consequence and weak relations on every surface (issue 27): REST (an operational rule held, then
confirmed by a cited log; a relation from one tool call weak in relations, search, the context package and why),
MCP (an agent remembers an operational rule and its context package names the missing evidence) and the CLI
(`credo fact add --operational`, `credo who` marks a weak relation)."""

from __future__ import annotations

import json

import anyio
from mcp.client import Client

from credo.api.mcp.server import build_server
from credo.services.facts.evidence_rules import MISSING_DIRECT
from tests.api.cli.test_cli import run


def _item(package, statement):
    return next(i for part in ("current", "historical", "open") for i in package[part] if i["statement"] == statement)


def test_over_rest_an_operational_rule_is_held_until_a_log_is_cited(api, tenant_a):
    h = tenant_a.headers
    made = api.post("/v1/facts", headers=h, json={"subject": "payments", "predicate": "retry_limit",
                                                  "object": {"type": "number", "value": 3}, "valid_from": "2025-01-01",
                                                  "statement": "payments retry at most 3 times", "operational": True})
    assert made.status_code == 201, made.text
    fact = made.json()["result"]
    assert (fact["epistemic"], fact["operational"], fact["evidence_hold"]) == ("hypothesis", True, True)
    package = api.get("/v1/context", headers=h, params={"query": "payments"}).json()
    held = _item(package, "payments retry at most 3 times")
    assert (held["part"], held["missing_evidence"]) == ("open", MISSING_DIRECT) and MISSING_DIRECT in package["markdown"]
    log = api.post("/v1/sources", headers=h, json={"kind": "log", "text": "retry 3/3 exhausted"}).json()["result"]
    assert log["kind"] == "log"
    cited = api.post(f"/v1/facts/{fact['fact_id']}/cite", headers=h, json={"source_id": log["source_id"]})
    assert cited.status_code in (200, 201), cited.text
    why = api.get(f"/v1/facts/{fact['fact_id']}/why", headers=h).json()
    assert why["fact"]["epistemic"] == "confirmed" and why["missing_evidence"] is None
    package = api.get("/v1/context", headers=h, params={"query": "payments"}).json()
    assert _item(package, "payments retry at most 3 times")["part"] == "current"


def test_over_rest_a_relation_from_one_tool_call_is_weak_everywhere_it_is_read(api, tenant_a):
    h = tenant_a.headers
    fact = api.post("/v1/facts", headers=h, json={"subject": "Alice", "predicate": "reports_to", "object": "Bob",
                                                  "valid_from": "2025-01-01", "statement": "Alice reports to Bob"})
    fact = fact.json()["result"]
    tool = api.post("/v1/sources", headers=h, json={"kind": "tool_result", "text": "alice.manager = bob"}).json()
    api.post(f"/v1/facts/{fact['fact_id']}/cite", headers=h, json={"source_id": tool["result"]["source_id"]})
    [rel] = api.get("/v1/entities/Alice/relations", headers=h).json()["items"]
    assert rel["weak"] is True
    hits = api.get("/v1/search", headers=h, params={"query": "Alice reports to Bob"}).json()["hits"]
    assert next(x for x in hits if x["id"] == fact["fact_id"])["weak"] is True
    package = api.get("/v1/context", headers=h, params={"query": "Alice"}).json()
    assert _item(package, "Alice reports to Bob")["weak"] is True and "weak: asserted once" in package["markdown"]
    assert api.get(f"/v1/facts/{fact['fact_id']}/why", headers=h).json()["weak"] is True


def test_over_mcp_an_agent_remembers_an_operational_rule_and_its_package_names_the_missing_evidence(store):
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            await client.call_tool("add_messages", {"session_id": "s1", "messages": [
                {"index": 0, "role": "user", "origin": "human_input", "author": "alice",
                 "text": "Never deploy on Fridays.", "at": "2025-01-01T09:00:00+00:00"}]})
            made = await client.call_tool("remember", {"session_id": "s1", "quote": "Never deploy on Fridays",
                                                       "content": "Never deploy on Fridays", "subject": "deploys",
                                                       "valid_from": "2025-01-01", "operational": True})
            package = await client.call_tool("context", {"query": "deploys"})
            return made, package

    made, package = anyio.run(scenario)
    assert not made.is_error, made.content
    fact = made.structured_content["result"]
    assert (fact["epistemic"], fact["operational"]) == ("hypothesis", True)
    found = package.structured_content
    found = found.get("result", found)
    assert _item(found, "Never deploy on Fridays")["missing_evidence"] == MISSING_DIRECT


def test_the_cli_adds_an_operational_rule_and_marks_a_weak_relation(cli_env, store):
    added = run(["fact", "add", "payments", "retry_limit", "3", "--number", "--from", "2025-01-01", "--operational",
                 "--json"], cli_env)
    assert added.returncode == 0, added.stderr
    fact = json.loads(added.stdout)
    assert (fact["epistemic"], fact["operational"], fact["evidence_hold"]) == ("hypothesis", True, True)
    edge = store.add_fact("Alice", "reports_to", "Bob", valid_from="2025-01-01")
    store.cite(edge.fact_id, store.add_source("tool_result", "alice.manager = bob").source_id)
    who = run(["who", "Alice"], cli_env)
    assert who.returncode == 0, who.stderr
    assert "weak: asserted once by one tool call" in who.stdout
