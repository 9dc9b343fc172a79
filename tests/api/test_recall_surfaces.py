"""The context package and read receipts on every surface: the Store and credo.Client (REST), MCP, the CLI;
another tenant's task or fact answers not found."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest
from mcp.client import Client as McpClient

from credo.api.mcp.server import build_server
from credo.client import Client
from credo.schema.context_package import ContextPackage
from credo.schema.errors import NotFound
from credo.store import Store
from tests.api.conftest import new_tenant


@pytest.fixture(params=["store", "client"])
def handle(request, neo4j_db):
    """The same tenant-bound API, embedded (Store) or remote (credo.Client against a live server)."""
    if request.param == "store":
        yield Store(neo4j_db, tenant=new_tenant(neo4j_db).name, embedder=None, _owns_db=False)
        return
    server = request.getfixturevalue("live_server")
    with Client(server.url, new_tenant(neo4j_db).key) as client:
        yield client


def test_context_and_receipts_answer_the_same_embedded_and_over_http(handle):
    # given an owner handed over to another
    alice = handle.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01",
                            statement="Alice owns the Acme account")
    handle.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01", statement="Bob owns the Acme account")
    # when a task reads the package
    package = handle.context("Acme account", valid_at="2024-07-01", budget_tokens=400, task="renewal")
    # then it is the package model, with the three parts, and the receipt is readable back
    assert isinstance(package, ContextPackage)
    assert [i.statement for i in package.current] == ["Bob owns the Acme account"]
    assert [(i.statement, i.end_kind) for i in package.historical] == [("Alice owns the Acme account", "succession")]
    assert package.tokens <= 400 and package.markdown.startswith("# Context: Acme account")
    [receipt] = handle.served_to("renewal")
    assert receipt.receipt_id == package.receipt_id and len(receipt.versions) == 2
    assert [r.task for r in handle.tasks_served(alice.fact_id)] == ["renewal"]
    with pytest.raises(NotFound):
        handle.served_to("no-such-task")


def test_another_tenants_task_and_fact_answer_404_over_rest(api, tenant_a, tenant_b):
    made = api.post("/v1/facts", headers=tenant_a.headers,
                    json={"subject": "Acme", "predicate": "owned_by", "object": "Alice", "valid_from": "2024-01-01"})
    fact_id = made.json()["result"]["fact_id"]
    got = api.get("/v1/context", headers=tenant_a.headers, params={"query": "Acme", "task": "t-1"})
    assert got.status_code == 200 and [i["statement"] for i in got.json()["current"]]
    assert api.get("/v1/tasks/t-1/receipts", headers=tenant_a.headers).status_code == 200
    assert api.get("/v1/tasks/t-1/receipts", headers=tenant_b.headers).status_code == 404
    assert api.get(f"/v1/facts/{fact_id}/tasks", headers=tenant_b.headers).status_code == 404
    bad = api.get("/v1/context", headers=tenant_a.headers, params={"query": "Acme", "budget_tokens": 3})
    assert bad.status_code == 422


def test_an_agent_reads_the_context_package_as_an_mcp_tool(store, clock):
    clock.at("2024-01-05")
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01", statement="Alice owns Acme")
    store.add_fact("Acme account", "billed_in", "EUR", statement="Acme is billed in EUR")
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with McpClient(server) as client:
            return await client.call_tool("context", {"query": "Acme account", "task": "agent-1",
                                                      "valid_at": "2024-02-01"})

    result = anyio.run(scenario)
    assert not result.is_error, result.content
    package = result.structured_content
    assert [i["statement"] for i in package["current"]] == ["Alice owns Acme"]
    assert [(i["statement"], i["open_kind"]) for i in package["open"]] == [("Acme is billed in EUR", "undated")]
    assert [len(r.versions) for r in store.served_to("agent-1")] == [2]


def test_credo_context_prints_the_markdown_and_served_to_the_receipt(cli_env, neo4j_db, tenant):
    Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False).add_fact(
        "Acme account", "owned_by", "Alice", valid_from="2024-01-01", statement="Alice owns the Acme account")
    run = lambda *args: subprocess.run([sys.executable, "-m", "credo", *args], env=cli_env, capture_output=True,
                                       text=True, timeout=120)
    shown = run("context", "Who owns the Acme account?", "--task", "cli-task")
    assert shown.returncode == 0, shown.stderr
    assert "## Current" in shown.stdout and "Alice owns the Acme account" in shown.stdout
    receipts = run("served-to", "cli-task", "--json")
    assert receipts.returncode == 0, receipts.stderr
    [receipt] = json.loads(receipts.stdout)
    assert receipt["operation"] == "context" and receipt["versions"][0]["statement"] == "Alice owns the Acme account"
