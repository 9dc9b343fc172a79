"""One name per argument: context takes `query`, the name search takes, on every surface; the old name
(`question_or_entity`, the inspector's `q`) is refused with a hint naming `query` (issue 24 §8)."""

from __future__ import annotations

import anyio
import pytest
from mcp.client import Client as McpClient

from credo.api.mcp.server import build_server
from credo.client import Client
from credo.schema.errors import InvalidInput
from credo.store import Store
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_pages import login


def given_acme(store: Store) -> None:
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01", statement="Alice owns Acme")


def refused_with_hint(field: str, rule: str) -> None:
    assert field in ("question_or_entity", "q") and "`query`" in rule


def test_the_store_and_the_client_take_query_and_refuse_the_old_name(neo4j_db, live_server):
    tenant = new_tenant(neo4j_db)
    store = Store(neo4j_db, tenant=tenant.name, embedder=None, _owns_db=False)
    given_acme(store)
    with Client(live_server.url, tenant.key) as client:
        for handle in (store, client):
            assert [i.statement for i in handle.context(query="Acme").current] == ["Alice owns Acme"]
            assert [i.statement for i in handle.context("Acme").current] == ["Alice owns Acme"]
            with pytest.raises(InvalidInput) as refused:
                handle.context(question_or_entity="Acme")
            refused_with_hint(refused.value.field, refused.value.rule)


def test_rest_takes_query_and_refuses_the_old_name_with_a_hint(api, tenant_a, neo4j_db):
    given_acme(Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False))
    ok = api.get("/v1/context", headers=tenant_a.headers, params={"query": "Acme"})
    assert ok.status_code == 200 and [i["statement"] for i in ok.json()["current"]] == ["Alice owns Acme"]
    old = api.get("/v1/context", headers=tenant_a.headers, params={"question_or_entity": "Acme"})
    assert old.status_code == 422
    refused_with_hint(old.json()["field"], old.json()["rule"])
    # the schema documents only the new name
    params = {p["name"] for p in api.get("/openapi.json").json()["paths"]["/v1/context"]["get"]["parameters"]}
    assert "query" in params and "question_or_entity" not in params


def test_the_mcp_context_tool_takes_query_and_refuses_the_old_name(store):
    given_acme(store)
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with McpClient(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            ok = await client.call_tool("context", {"query": "Acme"})
            old = await client.call_tool("context", {"question_or_entity": "Acme"})
            return tools["context"].input_schema, ok, old

    schema, ok, old = anyio.run(scenario)
    assert "query" in schema["properties"] and "question_or_entity" not in schema["properties"]
    assert not ok.is_error and [i["statement"] for i in ok.structured_content["current"]] == ["Alice owns Acme"]
    assert old.is_error
    refused_with_hint(old.structured_content["field"], old.structured_content["rule"])


def test_the_inspector_context_page_takes_query_and_refuses_q(api, tenant_a, neo4j_db):
    given_acme(Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False))
    login(api, tenant_a)
    twin = api.get("/ui/context.json", params={"query": "Acme"})
    assert twin.status_code == 200 and [i["statement"] for i in twin.json()["current"]] == ["Alice owns Acme"]
    page = api.get("/ui/context", params={"query": "Acme"})
    assert page.status_code == 200 and "Alice owns Acme" in page.text and 'name="query"' in page.text
    old = api.get("/ui/context.json", params={"q": "Acme"})
    assert old.status_code == 422
    refused_with_hint(old.json()["field"], old.json()["rule"])
    old_page = api.get("/ui/context", params={"q": "Acme"})
    assert old_page.status_code == 422 and "query" in old_page.text and "Alice owns Acme" not in old_page.text
