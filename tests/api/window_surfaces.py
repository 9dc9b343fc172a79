"""What the surface tests of the two reads over a known-time window share (the belief diff,
tests/api/test_diff_surfaces.py, and the transition check, tests/api/test_transition_surfaces.py): the same writes
over REST and credo.Client, one MCP tool asked a good and a reversed window, and the CLI on the session's Neo4j."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
from mcp.client import Client as McpClient

from credo.api.mcp.server import build_server
from credo.client import Client
from tests.api.conftest import Tenant, new_tenant


def corrected_over_rest(api, tenant: Tenant) -> dict[str, Any]:
    """Over REST in `tenant`: "Bob role engineer" added, then corrected to "staff engineer"; the addition's result."""
    made = api.post("/v1/facts", headers=tenant.headers, json={"subject": "Bob", "predicate": "role",
                                                               "object": "engineer", "valid_from": "2024-01-01"})
    assert made.status_code == 201, made.text
    added = made.json()["result"]
    fixed = api.post(f"/v1/facts/{added['fact_id']}/correct", headers=tenant.headers,
                     json={"object": "staff engineer"})
    assert fixed.status_code == 200, fixed.text
    return added


def ended_lease_over_client(live_server, neo4j_db, ask: Callable[[Client], Any]) -> tuple[Any, Any]:
    """Through credo.Client in a fresh tenant: "Office lease held_by Acme" added, then ended; (the fact, `ask`'s
    answer)."""
    tenant = new_tenant(neo4j_db)
    with Client(live_server.url, tenant.key) as client:
        fact = client.add_fact("Office lease", "held_by", "Acme", valid_from="2024-01-01")
        client.end_fact(fact.fact_id, at="2024-09-01")
        return fact, ask(client)


def mcp_window(store, tool: str, window: dict[str, str], reversed_window: dict[str, str]) -> tuple[Any, Any, Any]:
    """The MCP `tool` of `store`'s principal asked `window` and `reversed_window`: (the tool, both answers)."""
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with McpClient(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            return tools[tool], await client.call_tool(tool, window), await client.call_tool(tool, reversed_window)

    return anyio.run(scenario)


def cli_on_session_neo4j(cli_env: dict[str, str], monkeypatch) -> None:
    """The `credo` command run in-process talks to the session's Neo4j, never starts its own."""
    for key, value in cli_env.items():
        if key.startswith("NEO4J_"):
            monkeypatch.setenv(key, value)
