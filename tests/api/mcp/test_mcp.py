"""The MCP server: an agent ingests a turn, remembers through the write gate and asks why, in memory, over
stdio and over streamable HTTP behind the API keys; failures are tool errors carrying the problem codes."""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import datetime, timezone

import anyio
import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from mcp.client import Client

from credo.api.mcp.http import mcp_mount
from credo.api.mcp.server import build_server
from credo.api.rest import create_app
from credo.settings import Settings
from credo.store import Store
from tests.api.conftest import semantic_logged_for
from tests.messages import messages

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=timezone.utc)
QUOTE = "the billing service moved to Frankfurt last week"


msg = messages(T0, "alice", iso=True)


TURN = [msg(0, "Hi."), msg(1, "Noted.", origin="agent", role="assistant", author="agent"),
        msg(2, f"Heads-up: {QUOTE}. Ping me if anything breaks.")]


def structured(result) -> dict:
    """The structured content of a tool result (an error result carries the problem document)."""
    assert result.structured_content is not None, result.content
    return result.structured_content


async def ingest_and_remember(client: Client, quote: str = QUOTE):
    """Given the turn, remember the billing fact on the word of `quote`."""
    added = await client.call_tool("add_messages", {"session_id": "s1", "messages": TURN})
    assert not added.is_error, added.content
    return await client.call_tool("remember", {
        "session_id": "s1", "quote": quote, "content": "The billing service runs in Frankfurt.",
        "subject": "billing service", "predicate": "located_in", "object": "Frankfurt",
        "valid_from": "2024-04-24"})


# -- in memory -------------------------------------------------------------------------------------
@pytest.mark.usefixtures("semantic_logged")  # the gate and reads, not consent: remember serves at once (conftest.py)
def test_an_agent_remembers_a_verbatim_quote_and_why_gives_the_quote_back(store, clock):
    clock.at("2024-05-01T10:00:00+00:00")
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            # when the agent ingests the turn and remembers on a verbatim quote
            remembered = await ingest_and_remember(client)
            assert not remembered.is_error, remembered.content
            fact = structured(remembered)["result"]
            assert (fact["subject"], fact["predicate"], fact["object_name"]) == (
                "billing service", "located_in", "Frankfurt")
            assert (fact["evidence"], fact["epistemic"]) == ("stated", "confirmed")
            # then the as-of read serves it, and why names the quote and the message it came from
            facts = structured(await client.call_tool("facts_as_of", {"subject": "billing service"}))
            assert [f["fact_id"] for f in facts["items"]] == [fact["fact_id"]]
            why = structured(await client.call_tool("why", {"fact_id": fact["fact_id"]}))
            [source] = why["sources"]
            assert (source["quote"], source["session_id"], source["index"]) == (QUOTE, "s1", 2)
            return fact

    fact = anyio.run(scenario)
    assert store.why(fact["fact_id"]).sources[0].quote == QUOTE


def test_a_paraphrased_quote_is_a_tool_error_naming_the_rule_and_writes_nothing(store, clock):
    clock.at("2024-05-01T10:00:00+00:00")
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            # when the quote is a paraphrase of what the human said
            refused = await ingest_and_remember(client, quote="billing now runs from Frankfurt")
            # then the call is a tool error carrying the problem's code, field and rule
            assert refused.is_error
            problem = structured(refused)
            assert (problem["code"], problem["field"], problem["status"]) == ("evidence_refused", "quote", 422)
            assert "verbatim" in problem["rule"]
            assert json.loads(refused.content[0].text)["code"] == "evidence_refused"
            return structured(await client.call_tool("facts_as_of", {"subject": "billing service"}))

    assert anyio.run(scenario)["items"] == []
    assert store.facts("billing service") == []


def test_facts_as_of_gives_undated_facts_apart_never_dropped(store):
    # given one fact with a known start and one whose start nobody knows
    dated = store.add_fact("ledger", "database", "Postgres", valid_from="2024-01-01")
    undated = store.add_fact("ledger", "owner", "Alice")
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            return structured(await client.call_tool("facts_as_of", {"subject": "ledger", "valid_at": "2024-06-01"}))

    # then the dated answer holds the dated fact, and the undated one comes apart
    answer = anyio.run(scenario)
    assert [f["fact_id"] for f in answer["items"]] == [dated.fact_id]
    assert [f["fact_id"] for f in answer["undated"]] == [undated.fact_id]


def test_bad_tool_input_is_a_tool_error_naming_the_field(store):
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            return await client.call_tool("facts_as_of", {"subject": "x", "valid_at": "not a date"})

    result = anyio.run(scenario)
    assert result.is_error
    assert (structured(result)["code"], structured(result)["field"]) == ("invalid_input", "valid_at")


def test_a_misspelt_argument_is_refused_not_ignored(store):
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            return await client.call_tool("facts_as_of", {"subject": "x", "valid_att": "2024-01-01"})

    result = anyio.run(scenario)
    assert result.is_error
    assert (structured(result)["code"], structured(result)["field"]) == ("invalid_input", "valid_att")


def test_who_stale_reverify_conflicts_and_resolution_as_tools(store, clock):
    # given an owner, a rule resting on it, and a conflicting claim kept as conflicted
    clock.at("2024-05-01T10:00:00+00:00")
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    rule = store.add_fact("Acme invoices", "approved_by", "Alice", valid_from="2024-01-01",
                          depends_on=[alice.fact_id])
    store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-03-01")
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            relations = structured(await client.call_tool("who", {"entity": "Alice"}))
            assert {(r["direction"], r["fact"]["predicate"]) for r in relations["items"]} == {
                ("in", "owned_by"), ("in", "approved_by")}
            [conflict] = structured(await client.call_tool("conflicts", {}))["conflicts"]
            # when the dispute is decided as a succession, the rule resting on Alice's ownership goes stale
            resolved = structured(await client.call_tool("resolve_conflict", {
                "conflict_id": conflict["conflict_id"], "decision": "succession", "at": "2024-03-01"}))
            assert resolved["result"]["object_name"] == "Bob"
            assert rule.fact_id in {f["fact_id"] for f in resolved["cascade"]["facts"]}
            stale = structured(await client.call_tool("stale", {}))["items"]
            assert [i["id"] for i in stale] == [rule.fact_id]
            # then re-verifying it clears the queue
            held = structured(await client.call_tool("reverify", {"fact_id": rule.fact_id, "outcome": "holds",
                                                                   "note": "Alice still approves"}))
            assert held["result"]["state"] == "active"
            return structured(await client.call_tool("stale", {}))["items"]

    assert anyio.run(scenario) == []


def test_every_operation_the_registry_gives_an_mcp_name_is_a_tool(store):
    from credo.schema.operations import OPERATIONS

    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert anyio.run(scenario) == {op.mcp for op in OPERATIONS if op.mcp}


def test_removing_one_tool_makes_the_registry_check_fail(store):
    from credo.api.mcp.server import tool_names
    from credo.schema.operations import OPERATIONS

    server = build_server(store.for_principal, principal=store.principal)
    server.remove_tool("why")
    declared = {op.mcp for op in OPERATIONS if op.mcp}
    assert declared - set(anyio.run(tool_names, server)) == {"why"}


def test_tool_descriptions_tell_the_agent_what_evidence_each_needs(store):
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            return {t.name: t for t in (await client.list_tools()).tools}

    tools = anyio.run(scenario)
    assert {"remember", "add_messages", "facts_as_of", "who", "why", "stale", "reverify", "conflicts",
            "resolve_conflict"} <= set(tools)
    assert "verbatim" in tools["remember"].description and "hypothes" in tools["remember"].description
    assert {"session_id", "quote", "content"} <= set(tools["remember"].input_schema["required"])


# -- over streamable HTTP, behind the API keys --------------------------------------------------------
class _Uvicorn:
    """uvicorn serving `app` on 127.0.0.1 at an ephemeral port, in a thread, for the block."""

    def __init__(self, app) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture
def http_app(neo4j_db):
    """The service app (REST + MCP at /mcp) on the session's Neo4j, behind its real API keys."""
    return create_app(Settings(), db=neo4j_db, embedder=None, mounts=[mcp_mount])


def test_credo_serve_mounts_mcp_in_its_app():
    from credo.api.cli.serve import mcp_mounts

    app = create_app(Settings(), mounts=mcp_mounts())
    assert {"/mcp", "/mcp/"} <= {getattr(r, "path", None) for r in app.router.routes}


def _client(base: str, headers: dict[str, str]) -> Client:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    return Client(streamable_http_client(f"{base}/mcp", http_client=httpx2.AsyncClient(headers=headers)))


def test_over_streamable_http_a_keyed_agent_remembers_and_gets_the_quote_back(neo4j_db, http_app, tenant_a):
    semantic_logged_for(neo4j_db, tenant_a.name)  # the gate and reads, not consent: remember serves at once
    a = tenant_a
    with _Uvicorn(http_app) as base:
        # a request without a key (or with an unknown one) is refused before MCP sees it
        bare = httpx.post(f"{base}/mcp", json={})
        assert (bare.status_code, bare.json()["code"]) == (401, "unauthenticated")
        assert httpx.post(f"{base}/mcp", json={}, headers={"X-API-Key": "credo_nope_nope"}).status_code == 401

        async def scenario():
            async with _client(base, {"Authorization": f"Bearer {a.key}"}) as client:
                remembered = await ingest_and_remember(client)
                assert not remembered.is_error, remembered.content
                fact_id = structured(remembered)["result"]["fact_id"]
                facts = structured(await client.call_tool("facts_as_of", {"subject": "billing service"}))
                assert [f["fact_id"] for f in facts["items"]] == [fact_id]
                why = structured(await client.call_tool("why", {"fact_id": fact_id}))
                return fact_id, why["sources"][0]["quote"]

        fact_id, quote = anyio.run(scenario)
    assert quote == QUOTE
    # the key's tenant is where it was written
    assert [f.fact_id for f in Store(neo4j_db, tenant=a.name, _owns_db=False).facts("billing service")] == [fact_id]


def test_a_get_on_mcp_answers_405_at_once_as_a_stateless_server_has_no_stream_to_offer(neo4j_db, http_app, tenant_a):
    with _Uvicorn(http_app) as base:
        got = httpx.get(f"{base}/mcp", headers={"X-API-Key": tenant_a.key, "Accept": "text/event-stream"},
                        timeout=10)
    assert got.status_code == 405 and got.headers["allow"] == "POST"
    assert got.json()["code"] == "method_not_allowed"


def test_a_revoked_key_is_refused_over_mcp(neo4j_db, http_app, tenant_a):
    from credo.services.access import api_keys

    a = tenant_a
    api_keys.revoke_key(neo4j_db, key_id=a.key_id)
    with _Uvicorn(http_app) as base:
        refused = httpx.post(f"{base}/mcp", json={}, headers={"X-API-Key": a.key})
    assert (refused.status_code, refused.json()["code"]) == (401, "unauthenticated")
    assert refused.headers["www-authenticate"].startswith("Bearer")


def test_another_tenants_key_cannot_read_the_fact_same_as_an_unknown_id(neo4j_db, http_app, tenant_a, tenant_b):
    a, b = tenant_a, tenant_b
    fact = Store(neo4j_db, tenant=a.name, embedder=None, _owns_db=False).add_fact(
        "billing service", "located_in", "Frankfurt", valid_from="2024-04-01")
    with _Uvicorn(http_app) as base:

        async def scenario():
            async with _client(base, {"X-API-Key": b.key}) as client:
                theirs = await client.call_tool("why", {"fact_id": fact.fact_id})
                unknown = await client.call_tool("why", {"fact_id": "f_doesnotexist"})
                listed = structured(await client.call_tool("facts_as_of", {"subject": "billing service"}))
                return theirs, unknown, listed

        theirs, unknown, listed = anyio.run(scenario)
    assert theirs.is_error and unknown.is_error
    masked = {k: v for k, v in structured(theirs).items() if k not in ("detail", "request_id")}
    assert masked == {k: v for k, v in structured(unknown).items() if k not in ("detail", "request_id")}
    assert masked["code"] == "not_found" and masked["status"] == 404
    assert structured(theirs)["request_id"]  # the app's request id names the call in the server log
    assert listed["items"] == [] and listed["undated"] == []


def test_dns_rebinding_protection_refuses_a_host_not_allowed(neo4j_db, tenant_a):
    a = tenant_a
    app = create_app(Settings(mcp_allowed_hosts=["credo.internal:*"]), db=neo4j_db, embedder=None,
                     mounts=[mcp_mount])
    with _Uvicorn(app) as base:
        headers = {"X-API-Key": a.key, "Accept": "application/json, text/event-stream"}
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        refused = httpx.post(f"{base}/mcp", json=ping, headers=headers)
        allowed = httpx.post(f"{base}/mcp", json=ping, headers={**headers, "Host": "credo.internal:8080"})
    assert refused.status_code == 421
    assert allowed.status_code == 200


# -- over stdio ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("auth", ["key", "off"])
def test_credo_mcp_over_stdio_serves_the_keys_tenant(neo4j_db, cli_env, tenant_a, auth):
    semantic_logged_for(neo4j_db, tenant_a.name)  # the gate and reads, not consent: remember serves at once
    import shutil
    import sys
    from pathlib import Path

    from mcp.client.stdio import StdioServerParameters

    credo = shutil.which("credo", path=str(Path(sys.executable).parent))
    # the key decides the tenant (CREDO_TENANT says another); with CREDO_AUTH=off --tenant does
    env = {**cli_env, "CREDO_TENANT": "someone_else", "CREDO_API_KEY": tenant_a.key}
    argv = ["mcp"]
    if auth == "off":
        env.pop("CREDO_API_KEY")
        env["CREDO_AUTH"] = "off"
        argv = ["--tenant", tenant_a.name, "mcp"]

    async def scenario():
        async with Client(StdioServerParameters(command=credo, args=argv, env=env)) as client:
            remembered = await ingest_and_remember(client)
            assert not remembered.is_error, remembered.content
            fact_id = structured(remembered)["result"]["fact_id"]
            why = structured(await client.call_tool("why", {"fact_id": fact_id}))
            return fact_id, why["sources"][0]["quote"]

    fact_id, quote = anyio.run(scenario)
    assert quote == QUOTE
    served = Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False).facts("billing service")
    assert [f.fact_id for f in served] == [fact_id]


def test_credo_mcp_without_a_key_refuses_to_start(cli_env):
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in cli_env.items() if k not in ("CREDO_API_KEY", "CREDO_AUTH")}
    done = subprocess.run([str(Path(sys.executable).parent / "credo"), "mcp"], env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert "CREDO_API_KEY" in done.stderr and done.stdout == ""
