"""Search on every surface: REST (the key's clearance bounds it), MCP, the CLI and credo.Client."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
from mcp.client import Client as McpClient

import credo
from credo.api.mcp.server import build_server
from credo.services.access import api_keys
from credo.store import Store

CREDO = [sys.executable, "-m", "credo"]


def _seed(store: Store) -> None:
    store.add_fact("Payments", "migrates_to", "Stripe", statement="The payments migration moves us to Stripe")
    store.add_fact("Payments", "budget", "2 million", sensitivity="secret",
                   statement="The payments migration budget is 2 million")


def test_rest_search_answers_within_the_keys_clearance(api, neo4j_db, tenant_a):
    # given a tenant with an internal fact and a secret one, and a key cleared for secret
    _seed(Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False))
    secret = api_keys.create_key(neo4j_db, tenant=tenant_a.name, clearance="secret").secret
    # when each key searches
    internal = api.get("/v1/search", params={"query": "payments migration", "kinds": ["fact"]},
                       headers=tenant_a.headers)
    cleared = api.get("/v1/search", params={"query": "payments migration", "kinds": ["fact"]},
                      headers={"X-API-Key": secret})
    # then the default (internal) key never sees the secret fact; the cleared key does
    assert internal.status_code == 200, internal.text
    assert [h["text"] for h in internal.json()["hits"]] == ["The payments migration moves us to Stripe"]
    assert len(cleared.json()["hits"]) == 2
    assert set(internal.json()["hits"][0]["paths"]) >= {"lexical", "graph"}


def test_rest_search_refuses_a_bad_limit_naming_the_field(api, tenant_a):
    answer = api.get("/v1/search", params={"query": "x", "limit": 0}, headers=tenant_a.headers)
    assert answer.status_code == 422 and answer.json()["field"] == "limit"


def test_the_mcp_search_tool_answers_hits_with_their_paths(store):
    _seed(store)
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with McpClient(server) as client:
            return await client.call_tool("search", {"query": "payments migration Stripe", "limit": 5})

    result = anyio.run(scenario)
    assert not result.is_error, result.content
    hits = result.structured_content["hits"]
    assert hits[0]["text"] == "The payments migration moves us to Stripe" and "lexical" in hits[0]["paths"]


def test_credo_search_prints_the_hits_and_their_paths(store, cli_env):
    _seed(store)
    done = subprocess.run(CREDO + ["search", "payments migration Stripe", "--kind", "fact", "--json"], env=cli_env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    hits = json.loads(done.stdout)["hits"]
    assert hits[0]["text"] == "The payments migration moves us to Stripe"


def test_the_client_search_matches_the_store(live_server, neo4j_db, tenant_a):
    _seed(Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False))
    with credo.Client(live_server.url, tenant_a.key) as client:
        found = client.search("payments migration", kinds=["fact"], limit=5)
    assert [h.text for h in found.hits] == ["The payments migration moves us to Stripe"]


def test_a_search_given_a_task_over_rest_and_mcp_records_a_read_receipt(api, neo4j_db, tenant_a):
    # given a tenant with a fact
    store = Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False)
    _seed(store)
    # when REST and MCP searches name a task
    rest = api.get("/v1/search", params={"query": "payments migration", "kinds": ["fact"], "task": "rest-task"},
                   headers=tenant_a.headers)
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with McpClient(server) as client:
            return await client.call_tool("search", {"query": "payments migration Stripe", "task": "mcp-task"})

    mcp = anyio.run(scenario)
    # then each answer names its receipt, and served_to gives back what each task was served
    assert rest.status_code == 200, rest.text
    assert not mcp.is_error, mcp.content
    for task, answer in (("rest-task", rest.json()), ("mcp-task", mcp.structured_content)):
        [receipt] = store.served_to(task)
        assert receipt.receipt_id == answer["receipt_id"] and receipt.operation == "search"
        assert [v.version_id for v in receipt.versions] == [h["version_id"] for h in answer["hits"]
                                                             if h["kind"] == "fact"]


def test_credo_search_with_a_task_prints_its_receipt(store, cli_env):
    _seed(store)
    done = subprocess.run(CREDO + ["search", "payments migration Stripe", "--task", "cli-task", "--json"],
                          env=cli_env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    [receipt] = store.served_to("cli-task")
    assert json.loads(done.stdout)["receipt_id"] == receipt.receipt_id


def test_search_hits_carry_their_marks_over_rest_mcp_and_the_client(api, neo4j_db, tenant_a, live_server):
    # given an established value disputed by a later write, and an undated fact
    store = Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False)
    store.add_fact("Vault", "owned_by", "Alice", valid_from="2024-01-01", statement="The Vault is owned by Alice")
    store.add_fact("Vault", "owned_by", "Bob", valid_from="2024-03-01", statement="The Vault is owned by Bob")
    store.add_fact("Vault", "hosted_in", "Oslo", object_is_entity=False, statement="The Vault is hosted in Oslo")
    wanted = {"The Vault is owned by Alice": {"hypothesis": False, "candidate": False, "undated": False,
                                              "disputed": True},
              "The Vault is hosted in Oslo": {"hypothesis": False, "candidate": False, "undated": True,
                                              "disputed": False}}

    def marks(hit: dict) -> dict:
        return {k: hit[k] for k in ("hypothesis", "candidate", "undated", "disputed")}

    rest = api.get("/v1/search", params={"query": "Vault", "kinds": ["fact"]}, headers=tenant_a.headers).json()
    assert {h["text"]: marks(h) for h in rest["hits"]} == wanted
    server = build_server(store.for_principal, principal=store.principal)

    async def over_mcp():
        async with McpClient(server) as client:
            return await client.call_tool("search", {"query": "Vault", "kinds": ["fact"]})

    found = anyio.run(over_mcp)
    assert {h["text"]: marks(h) for h in found.structured_content["hits"]} == wanted
    with credo.Client(live_server.url, tenant_a.key) as client:
        hits = client.search("Vault", kinds=["fact"]).hits
    assert {h.text: marks(h.model_dump()) for h in hits} == wanted
