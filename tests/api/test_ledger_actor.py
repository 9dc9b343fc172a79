"""The ledger records who acted: the authenticated key on REST and MCP (over HTTP and stdio), the process user for
the CLI and the library; what a body claims (`actor`, `by`) is kept apart as a validated `on_behalf_of`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client import Client

from credo.api.mcp.http import mcp_mount
from credo.api.rest import create_app
from credo.schema.api_keys import local_actor
from credo.services.access import api_keys
from credo.settings import Settings
from credo.store import Store
from tests.api.mcp.test_mcp import _client, _Uvicorn, ingest_and_remember, structured


def events(db, tenant: str, operation: str) -> list:
    """The tenant's ledger events of one operation, read as its operator would."""
    return Store(db, tenant=tenant, embedder=None, _owns_db=False).audit(operation=operation).items


def test_rest_records_the_key_that_acted_and_keeps_the_claimed_actor_apart(api, neo4j_db, tenant_a):
    h = tenant_a.headers
    fact = api.post("/v1/facts", headers=h, json={"subject": "Acme", "predicate": "owned_by", "object": "Alice"})
    fact_id = fact.json()["result"]["fact_id"]
    done = api.post(f"/v1/facts/{fact_id}/deprecate", headers=h, json={"reason": "moved", "actor": "the CEO"})
    assert done.status_code == 200, done.text
    [added] = events(neo4j_db, tenant_a.name, "add_facts")
    [deprecated] = events(neo4j_db, tenant_a.name, "deprecate")
    assert added.actor == deprecated.actor == f"key:{tenant_a.key_id}"
    assert (added.on_behalf_of, deprecated.on_behalf_of) == (None, "the CEO")
    assert Store(neo4j_db, tenant=tenant_a.name, _owns_db=False).verify_ledger().ok  # on_behalf_of is chained


@pytest.mark.parametrize("claimed, rule", [
    ("\u200b", "invisible"), ("   ", "not blank"), ("a\u200bdmin", "U+200B"), ("x" * 513, "at most 512"),
    ("ok\u0007", "control"), ("key:5fd9955e25c85adb", "acting identity"), ("local:root", "acting identity"),
    ("System", "acting identity"), ("\u0301", "a letter or a digit"), ("--", "a letter or a digit"),
])
def test_a_claimed_actor_must_be_visible_non_blank_text_of_at_most_512(api, neo4j_db, tenant_a, claimed, rule):
    h = tenant_a.headers
    fact_id = api.post("/v1/facts", headers=h, json={"subject": "Acme", "predicate": "owned_by",
                                                     "object": "Alice"}).json()["result"]["fact_id"]
    refused = api.post(f"/v1/facts/{fact_id}/deprecate", headers=h, json={"reason": "moved", "actor": claimed})
    assert refused.status_code == 422, refused.text
    assert refused.json()["field"] == "actor" and rule in refused.json()["rule"]
    assert events(neo4j_db, tenant_a.name, "deprecate") == []


def test_mcp_over_http_records_the_key_that_acted(neo4j_db, tenant_a):
    app = create_app(Settings(), db=neo4j_db, embedder=None, mounts=[mcp_mount])
    with _Uvicorn(app) as base:
        async def scenario():
            async with _client(base, {"X-API-Key": tenant_a.key}) as client:
                remembered = await ingest_and_remember(client)
                assert not remembered.is_error, remembered.content
                fact_id = structured(remembered)["result"]["fact_id"]
                forgot = await client.call_tool("forget", {"target_id": fact_id, "reason": "asked",
                                                           "actor": "the data subject"})
                assert not forgot.is_error, forgot.content

        anyio.run(scenario)
    [remembered] = events(neo4j_db, tenant_a.name, "remember")
    [forgot] = events(neo4j_db, tenant_a.name, "forget")
    assert remembered.actor == forgot.actor == f"key:{tenant_a.key_id}"
    assert forgot.on_behalf_of == "the data subject"


def _credo() -> str:
    return shutil.which("credo", path=str(Path(sys.executable).parent)) or "credo"


def test_mcp_over_stdio_records_the_key_and_stops_serving_it_once_revoked(neo4j_db, cli_env, tenant_a):
    from mcp.client.stdio import StdioServerParameters

    env = {**cli_env, "CREDO_API_KEY": tenant_a.key}

    async def scenario():
        async with Client(StdioServerParameters(command=_credo(), args=["mcp"], env=env)) as client:
            remembered = await ingest_and_remember(client)
            assert not remembered.is_error, remembered.content
            # the key is revoked while the agent's session goes on: the next call is refused
            api_keys.revoke_key(neo4j_db, key_id=tenant_a.key_id)
            return await client.call_tool("facts_as_of", {"subject": "billing service"})

    after = anyio.run(scenario)
    assert after.is_error and structured(after)["code"] == "unauthenticated"
    [remembered] = events(neo4j_db, tenant_a.name, "remember")
    assert remembered.actor == f"key:{tenant_a.key_id}"


def test_the_cli_records_the_process_user(neo4j_db, cli_env, tenant):
    done = subprocess.run([_credo(), "fact", "add", "Acme", "owned_by", "Alice", "--json"], env=cli_env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [added] = events(neo4j_db, tenant, "add_facts")
    assert added.actor == local_actor() and added.actor.startswith("local:")
    assert json.loads(done.stdout)["fact_id"] in added.ids
