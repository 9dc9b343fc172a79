"""The ledgers through REST, credo.Client and MCP: audit pages, verification, feedback; another tenant's key 404s."""

from __future__ import annotations

import anyio
from mcp.client import Client as McpClient

from credo.api.mcp.server import build_server
from credo.client import Client
from credo.services.recall import utility
from credo.store import Store
from tests.api.conftest import new_tenant


def test_audit_and_verify_over_rest_and_feedback_is_404_for_another_tenant(api, neo4j_db):
    # keys cleared for all: the audit ledger's reasons are free text about content of every label
    tenant_a, tenant_b = new_tenant(neo4j_db, clearance="all"), new_tenant(neo4j_db, clearance="all")
    made = api.post("/v1/facts", headers=tenant_a.headers, json={"subject": "Acme", "predicate": "owned_by",
                                                                 "object": "Alice"})
    assert made.status_code == 201, made.text
    fact_id = made.json()["result"]["fact_id"]
    api.post(f"/v1/facts/{fact_id}/retract", headers=tenant_a.headers, json={"reason": "wrong account"})
    page = api.get("/v1/audit", headers=tenant_a.headers, params={"limit": 1}).json()
    assert [e["operation"] for e in page["items"]] == ["add_facts"] and page["next_after"] == 1
    rest = api.get("/v1/audit", headers=tenant_a.headers, params={"after": 1, "id": fact_id}).json()
    assert [(e["operation"], e["reason"]) for e in rest["items"]] == [("retract_fact", "wrong account")]
    assert {e["actor"] for e in page["items"] + rest["items"]} == {f"key:{tenant_a.key_id}"}  # who acted: the key
    assert api.get("/v1/audit", headers=tenant_b.headers).json()["items"] == []  # the tenant comes from the key
    verified = api.get("/v1/audit/verify", headers=tenant_a.headers).json()
    assert verified["ok"] and verified["events"] == 2
    store = Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False)
    utility.record_recalls(store._ctx, receipt_id="r1", fact_ids=[fact_id])
    body = {"fact_id": fact_id, "outcome": "useful"}
    assert api.post("/v1/recalls/r1/feedback", headers=tenant_b.headers, json=body).status_code == 404
    answered = api.post("/v1/recalls/r1/feedback", headers=tenant_a.headers, json=body)
    assert answered.status_code == 200 and answered.json()["utility"] == 1.0
    assert api.get(f"/v1/facts/{fact_id}/utility", headers=tenant_b.headers).status_code == 404
    bad = api.post("/v1/recalls/r1/feedback", headers=tenant_a.headers, json={**body, "outcome": "great"})
    assert bad.status_code == 422 and bad.json()["field"] == "outcome"


def test_the_client_reads_the_same_ledger_as_the_store(live_server, neo4j_db):
    tenant = new_tenant(neo4j_db, clearance="all")  # the audit ledger is read with clearance all
    with Client(live_server.url, tenant.key) as client:
        fact = client.add_fact("Acme", "owned_by", "Alice")
        page = client.audit(id=fact.fact_id)
        assert [e.operation for e in page.items] == ["add_facts"] and page.items[0].hash
        assert client.verify_ledger().ok
        assert client.utility(fact.fact_id).tier.value == "working"


def test_an_agent_gives_feedback_through_the_mcp_tool(store):
    fact = store.add_fact("Alice", "prefers", "tea")
    utility.record_recalls(store._ctx, receipt_id="r1", fact_ids=[fact.fact_id])
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with McpClient(server) as client:
            harmful = await client.call_tool("feedback", {"receipt_id": "r1", "fact_id": fact.fact_id,
                                                          "outcome": "harmful"})
            missing = await client.call_tool("feedback", {"receipt_id": "r9", "fact_id": fact.fact_id,
                                                          "outcome": "useful"})
            return harmful.structured_content, missing

    usage, missing = anyio.run(scenario)
    assert usage["utility"] == -2.0 and usage["recalls"] == {"harmful": 1}
    assert missing.is_error and missing.structured_content["code"] == "not_found"
