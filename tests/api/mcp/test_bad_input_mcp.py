"""Bad input over MCP, through the SDK's client: every tool answers a tool error carrying the invalid_input problem
that names the field as sent, never an internal error, and writes nothing. The same tables as over REST (from the
command models, tests/hostile.py); over streamable HTTP, a 5,000-deep or 50 MB request is refused before MCP reads
it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.client import Client

from credo.api.mcp.http import mcp_mount
from credo.api.mcp.server import TOOLS, build_server
from credo.api.rest import create_app
from credo.schema.operations import BY_NAME
from credo.settings import Settings
from credo.store import Store
from tests.api.conftest import new_tenant
from tests.hostile import (
    MESSAGE,
    NOTHING,
    SURROGATE,
    Bad,
    deep,
    deep_json,
    held,
    numbers,
    required,
    surrogates,
    too_long,
    valid,
)

FIXED = {spec.op.name: spec.fixed for spec in TOOLS}


class Agent:
    """An MCP client session on the in-memory server, driven from the (synchronous) tests through a portal."""

    def __init__(self, portal: BlockingPortal, client: Client) -> None:
        self.portal = portal
        self.client = client

    def call(self, operation: str, arguments: dict[str, Any]) -> Any:
        """Call the operation's tool; the result as the SDK's client received it."""
        return self.portal.call(self.client.call_tool, BY_NAME[operation].mcp, arguments)


@pytest.fixture(scope="module")
def tenant() -> str:
    """The module's tenant: nothing may ever be written in it."""
    return f"t_{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="module")
def agent(neo4j_db, tenant) -> Iterator[Agent]:
    """One client session for the module's many refusals."""
    store = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False)
    server = build_server(store.for_principal, principal=store.principal)
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(Client(server)) as client:
            yield Agent(portal, client)


@pytest.fixture
def nothing_written(neo4j_db, tenant) -> Iterator[None]:
    """After the test, the tenant still holds nothing."""
    yield
    assert held(neo4j_db, tenant) == NOTHING


def arguments(bad: Bad) -> dict[str, Any]:
    """The tool's arguments: the command's other required fields valid, the hostile one, no fixed one."""
    fields = bad.fields(BY_NAME[bad.operation].command)
    return {k: v for k, v in fields.items() if k not in FIXED[bad.operation]}


def assert_refused(result: Any, named: str) -> dict[str, Any]:
    """A tool error whose problem is invalid_input naming the field; the problem is in the text content too."""
    assert result.is_error, result.content
    problem = result.structured_content
    assert (problem["code"], problem["status"], problem["field"]) == ("invalid_input", 422, named), problem
    assert json.loads(result.content[0].text)["field"] == named
    return problem


def _sendable(bad: Bad) -> bool:
    """The SDK's client cannot send a lone surrogate as a mapping's key (it fails writing the request)."""
    return not (isinstance(bad.value, dict) and any(not k.isascii() for k in bad.value))


@pytest.mark.parametrize("bad", [b for b in surrogates("mcp") if _sendable(b)], ids=str)
def test_a_lone_surrogate_in_any_argument_is_a_tool_error_naming_it(agent, nothing_written, bad):
    assert_refused(agent.call(bad.operation, arguments(bad)), bad.named)


@pytest.mark.parametrize("bad", numbers("mcp"), ids=str)
def test_integers_past_64_bits_booleans_and_numeric_times_are_tool_errors_naming_them(agent, nothing_written, bad):
    assert_refused(agent.call(bad.operation, arguments(bad)), bad.named)


@pytest.mark.parametrize("bad", too_long("mcp"), ids=str)
def test_20_kb_in_any_text_argument_is_a_tool_error_naming_it(agent, nothing_written, bad):
    assert_refused(agent.call(bad.operation, arguments(bad)), bad.named)


@pytest.mark.parametrize("operation", sorted(FIXED), ids=str)
def test_an_unknown_argument_of_any_tool_is_refused_by_its_name(agent, nothing_written, operation):
    args = {k: v for k, v in required(BY_NAME[operation].command).items() if k not in FIXED[operation]}
    assert_refused(agent.call(operation, args | {"valid_att": "2024-01-01"}), "valid_att")


@pytest.mark.parametrize("operation", ["ingest_messages", "remember"])
def test_a_10_kb_session_id_is_a_tool_error_naming_session_id(agent, nothing_written, operation):
    args = required(BY_NAME[operation].command) | {"session_id": "s" * 10_000}
    assert_refused(agent.call(operation, args), "session_id")


@pytest.mark.parametrize("operation, args, named", [
    ("facts", {"scope": {"env": deep(100)}}, "scope.env"),
    ("facts", {"object": deep(100)}, "object"),
    ("search", {"query": "x", "scope": deep(100)}, "scope"),
    ("ingest_messages", {"session_id": "s1", "messages": [{**MESSAGE, "text": deep(100)}]}, "messages[0].text"),
], ids=["scope value", "object", "scope", "message text"])
def test_deeply_nested_arguments_are_tool_errors_naming_them(agent, nothing_written, operation, args, named):
    assert_refused(agent.call(operation, args), named)


def test_a_list_or_text_argument_is_named_by_its_item_not_pydantics_union_member(agent, nothing_written):
    problem = assert_refused(agent.call("reverify", {"fact_id": "f_x", "evidence": ["s_1", SURROGATE]}), "evidence.1")
    assert "lone surrogate" in problem["rule"]


def test_an_empty_scope_key_is_a_tool_error(agent, nothing_written):
    assert_refused(agent.call("facts", {"scope": {"": "x"}}), "scope")


# -- over streamable HTTP: the request itself -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def over_http(neo4j_db) -> Iterator[tuple[TestClient, dict[str, str], str]]:
    """The service app with /mcp, a client at an allowed host, and a key's headers and tenant."""
    key = new_tenant(neo4j_db)
    app = create_app(Settings(), db=neo4j_db, embedder=None, mounts=[mcp_mount])
    headers = {**key.headers, "Accept": "application/json, text/event-stream", "content-type": "application/json"}
    with TestClient(app, base_url="http://127.0.0.1:8080", raise_server_exceptions=False) as client:
        yield client, headers, key.name


def _tool_call(arguments_json: str) -> str:
    return ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "facts_as_of", "arguments": '
            + arguments_json + "}}")


def test_5000_deep_json_over_mcp_http_is_refused_before_mcp_parses_it(neo4j_db, over_http):
    client, headers, tenant = over_http
    answer = client.post("/mcp/", content=_tool_call('{"scope": ' + deep_json(5000) + "}"), headers=headers)
    assert answer.status_code == 422 and answer.json()["field"] == "body"
    assert held(neo4j_db, tenant) == NOTHING


def test_a_50_mb_request_over_mcp_http_answers_413(neo4j_db, over_http):
    client, headers, tenant = over_http
    answer = client.post("/mcp/", content=_tool_call('{"subject": "' + "x" * 50_000_000 + '"}'), headers=headers)
    assert answer.status_code == 413
    assert held(neo4j_db, tenant) == NOTHING


def test_a_lone_surrogate_over_mcp_http_is_a_4xx(neo4j_db, over_http):
    client, headers, tenant = over_http
    answer = client.post("/mcp/", content=_tool_call(json.dumps({"subject": "a\ud800b"})), headers=headers)
    assert 400 <= answer.status_code < 500 or json.loads(answer.text)["result"]["isError"], answer.text
    assert held(neo4j_db, tenant) == NOTHING


# -- property-based: any mix of valid and hostile arguments, every tool ----------------------------------------------
HOSTILE = st.sampled_from([SURROGATE, "\udfff", "x" * 20_000, 2**63, 2**70, -(2**70), True, 1.5, float("inf"),
                           None, deep(40), {"": "x"}, [SURROGATE], {"k": deep(40)}])


def _value(name: str, info: Any) -> st.SearchStrategy:
    return st.one_of(st.just(valid(name, info)), HOSTILE, st.text(max_size=12), st.integers(), st.booleans())


def _arguments(operation: str) -> st.SearchStrategy:
    fields = {n: i for n, i in BY_NAME[operation].command.model_fields.items() if n not in FIXED[operation]}
    args = st.fixed_dictionaries({n: _value(n, i) for n, i in fields.items() if i.is_required()},
                                 optional={n: _value(n, i) for n, i in fields.items() if not i.is_required()})
    unknown = st.one_of(st.just({}), st.fixed_dictionaries({"valid_att": HOSTILE}))
    return st.tuples(args, unknown).map(lambda pair: pair[0] | pair[1])


@pytest.fixture(scope="module")
def any_agent(neo4j_db) -> Iterator[Agent]:
    """A client session on a tenant of its own (a valid call may write)."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    store = Store(neo4j_db, tenant=name, embedder=None, _owns_db=False)
    server = build_server(store.for_principal, principal=store.principal)
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(Client(server)) as client:
            yield Agent(portal, client)


@pytest.mark.parametrize("operation", sorted(FIXED), ids=str)
def test_no_tool_answers_an_internal_error_whatever_its_arguments(any_agent, operation):
    @settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(args=_arguments(operation))
    def property_(args: dict[str, Any]) -> None:
        result = any_agent.call(operation, args)
        if result.is_error:
            problem = result.structured_content
            assert problem["status"] < 500 and problem["code"] != "internal", (args, problem)

    property_()
