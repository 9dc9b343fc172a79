"""An as-of read answers one model on every surface: REST (page by page), MCP and credo.Client give the Store's
answer — the same dated items, the same undated ones apart, the same stored versions skipped."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp.client import Client as McpClient

from credo.api.mcp.server import build_server
from credo.client import Client
from credo.schema.api_keys import Principal
from credo.schema.facts import AsOf, AsOfAnswer, Fact, Relation
from credo.schema.operations import BY_NAME
from credo.store import Store
from tests.services.core.test_validation import damage

AT = "2024-06-01"
# (REST path, query, MCP tool and its arguments or None, Store/Client method and its arguments)
READS: list[tuple[str, dict[str, str], tuple[str, dict[str, str]] | None, tuple[str, tuple, dict[str, str]]]] = [
    ("/v1/facts", {"subject": "orders-db", "valid_at": AT},
     ("facts_as_of", {"subject": "orders-db", "valid_at": AT}), ("facts", ("orders-db",), {"valid_at": AT})),
    ("/v1/facts", {"valid_at": AT},  # the tenant's listing: cut in its query, a window a page
     ("facts_as_of", {"valid_at": AT}), ("facts", (), {"valid_at": AT})),
    ("/v1/entities/orders-db/relations", {"valid_at": AT},
     ("who", {"entity": "orders-db", "valid_at": AT}), ("relations", ("orders-db",), {"valid_at": AT})),
    ("/v1/holders", {"predicate": "owner", "object": "Dana", "valid_at": AT},
     None, ("holders", ("owner", "Dana"), {"valid_at": AT})),  # no MCP tool: who covers it
]


def key_of(item: Any) -> str:
    """A fact's id; a relation's direction and fact id (the same fact may be read in both directions)."""
    if isinstance(item, dict):
        return f"{item['direction']}:{item['fact']['fact_id']}" if "direction" in item else item["fact_id"]
    return f"{item.direction}:{item.fact.fact_id}" if isinstance(item, Relation) else item.fact_id


def shape(items: list[Any], undated: list[Any], unreadable: list[Any]) -> tuple[list[str], list[str], list[str]]:
    """What the surfaces must agree on: the dated ids, the undated ids, the skipped versions."""
    skipped = [u["version_id"] if isinstance(u, dict) else u.version_id for u in unreadable]
    return [key_of(i) for i in items], [key_of(i) for i in undated], sorted(skipped)


@pytest.fixture
def seeded(neo4j_db, tenant_a) -> tuple[Store, dict[str, Fact]]:
    """Tenant A with dated and undated facts, relations and holders, and one stored version damaged."""
    store = Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False)
    made = {
        "owner": store.add_fact("orders-db", "owner", "Dana", valid_from="2024-01-01"),
        "region": store.add_fact("orders-db", "region", "eu-west", object_is_entity=False, valid_from="2023-01-01"),
        "schema": store.add_fact("orders-db", "schema_version", "v7", object_is_entity=False),
        "runs_on": store.add_fact("orders-db", "runs_on", "Postgres"),
        "feeds": store.add_fact("billing", "reads_from", "orders-db", valid_from="2024-02-01"),
        "ledger": store.add_fact("ledger", "owner", "Dana"),
        "damaged": store.add_fact("orders-db", "tier", "gold", object_is_entity=False, valid_from="2024-01-01"),
    }
    damage(store, made["damaged"].version_id, "confidence", "high")
    return store, made


def rest_answer(api, headers: dict[str, str], path: str, query: dict[str, str]) -> tuple[list, list, list]:
    """The REST answer read one item a page (so every page's cursor, its pinned known time too, is followed)."""
    items, undated, unreadable, cursor = [], [], [], None
    for _ in range(50):
        got = api.get(path, params=query | {"limit": 1} | ({"cursor": cursor} if cursor else {}), headers=headers)
        assert got.status_code == 200, got.text
        page = got.json()
        assert set(page) == {"items", "undated", "unreadable", "next_cursor"}
        assert all(not i["undated"] for i in page["items"]) and all(i["undated"] for i in page["undated"])
        items, undated = items + page["items"], undated + page["undated"]
        unreadable += [u for u in page["unreadable"] if u not in unreadable]
        cursor = page["next_cursor"]
        if not cursor:
            return shape(items, undated, unreadable)
    raise AssertionError("the pages never ended")


def mcp_answers(store: Store, principal: Principal) -> list[tuple[list, list, list] | None]:
    """The MCP answer of each read (None where no tool covers it)."""
    server = build_server(store.for_principal, principal=principal)

    async def scenario():
        found = []
        async with McpClient(server) as client:
            for _, _, tool, _ in READS:
                if tool is None:
                    found.append(None)
                    continue
                result = await client.call_tool(*tool)
                assert not result.is_error, result.content
                body = result.structured_content
                assert set(body) == {"items", "undated", "unreadable", "next_cursor"}
                found.append(shape(body["items"], body["undated"], body["unreadable"]))
        return found

    return anyio.run(scenario)


def test_rest_mcp_and_the_client_answer_an_as_of_read_as_the_store_does(api, live_server, seeded, tenant_a):
    # given a tenant with dated and undated facts, relations and holders, and one damaged stored version
    store, made = seeded
    principal = Principal(tenant=tenant_a.name, clearance="internal", key_id=tenant_a.key_id,
                          actor=f"key:{tenant_a.key_id}")  # what tenant A's key acts as
    mcp = mcp_answers(store, principal)
    with Client(live_server.url, tenant_a.key) as client:  # the app served in a thread of this process
        for (path, query, _, (method, args, kwargs)), over_mcp in zip(READS, mcp):
            # when each surface reads the same point
            wanted = getattr(store.for_principal(principal), method)(*args, **kwargs)
            remote = getattr(client, method)(*args, **kwargs)
            # then the Store's dated answer, undated items and skipped versions come back alike everywhere
            expected = shape(wanted.dated, wanted.undated, wanted.unreadable)
            assert isinstance(remote, AsOf) and shape(remote.dated, remote.undated, remote.unreadable) == expected
            assert rest_answer(api, tenant_a.headers, path, query) == expected, path
            assert over_mcp in (None, expected), path
    # and the reads were not empty: each part of the answer was there to compare
    by_subject = store.facts("orders-db", valid_at=AT)
    assert {f.fact_id for f in by_subject.dated} == {made["owner"].fact_id, made["region"].fact_id}
    assert {f.fact_id for f in by_subject.undated} == {made["schema"].fact_id, made["runs_on"].fact_id}
    assert [u.version_id for u in by_subject.unreadable] == [made["damaged"].version_id]
    relations = store.relations("orders-db", valid_at=AT)
    assert relations.dated and relations.undated
    holders = store.holders("owner", "Dana", valid_at=AT)
    assert [f.fact_id for f in holders.dated] == [made["owner"].fact_id]
    assert [f.fact_id for f in holders.undated] == [made["ledger"].fact_id]


def test_the_openapi_answer_and_the_mcp_output_schema_are_the_shared_model(api):
    spec = api.get("/openapi.json").json()
    ref = spec["paths"]["/v1/facts"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/AsOfAnswer_Fact_")
    assert set(spec["components"]["schemas"]["AsOfAnswer_Fact_"]["properties"]) == {
        "items", "undated", "unreadable", "next_cursor"}
    assert BY_NAME["relations"].as_of is AsOfAnswer[Relation]

    async def schemas():
        async with McpClient(build_server(lambda principal: None)) as client:  # type: ignore[arg-type]
            return {t.name: t.output_schema for t in (await client.list_tools()).tools}

    tools = anyio.run(schemas)
    assert tools["facts_as_of"] == AsOfAnswer[Fact].model_json_schema()
    assert set(tools["who"]["properties"]) == {"items", "undated", "unreadable", "next_cursor"}
