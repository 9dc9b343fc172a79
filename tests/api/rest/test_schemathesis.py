"""Property-based run of every route against /openapi.json on a real uvicorn server: no 5xx, every response
(status, content type, body) conforms to the documented schema; then again with hostile values (lone surrogates,
integers past 64 bits, booleans for numbers, 20 KB texts, deep nesting, unknown query parameters) mixed into what is
generated. Bounded: a few examples per operation."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from credo.api.rest import create_app
from credo.schema.operations import OPERATIONS
from credo.settings import Settings
from tests.api.conftest import new_tenant
from tests.hostile import deep, shape, valid

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def server_settings(chat_endpoint):
    """The live server's LLM endpoint is a local replay answering an empty candidate set."""
    with chat_endpoint([]) as replay:
        replay.exhausted = '{"candidates": []}'
        yield Settings(llm_base_url=replay.url, llm_model="replay")


@pytest.fixture
def served(live_server, neo4j_db):
    """The live server and a key of a fresh tenant."""
    tenant = new_tenant(neo4j_db)
    return live_server, tenant


# the app's schema, generated without a server; the test checks the live server publishes exactly this one
OPENAPI = create_app(Settings()).openapi()
schema = schemathesis.openapi.from_dict(OPENAPI)


def test_the_running_server_publishes_the_schema_under_test(served):
    server, _ = served
    assert httpx.get(f"{server.url}/openapi.json").json() == OPENAPI


@schema.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_route_answers_5xx_or_breaks_its_schema(case, served):
    server, tenant = served
    case.call_and_validate(base_url=server.url, headers={"X-API-Key": tenant.key}, checks=CHECKS)


# -- the same routes, with hostile values mixed into what schemathesis generates -------------------------------------
# Each request gets one value replaced by a lone surrogate, an integer past 64 bits, a boolean, a 20 KB text or a
# value nested past every bound (1,500-deep JSON where a query takes JSON), or an unknown query parameter. So that a
# random but invalid value elsewhere does not mask it, the command's required fields start valid and only some of
# the generated optional ones are kept (times made valid: they are documented as plain text). Every route must still
# answer within its documented statuses and never 5xx.
hostile = schemathesis.openapi.from_dict(OPENAPI)
DEEP = "[" * 1500 + "]" * 1500  # 9 KB percent-encoded: inside a request line's 16 KB
SURROGATES = ["a\ud800b", "\udfff"]
HUGE = [2**63, 2**70, -(2**70)]
HOSTILE_JSON = st.sampled_from([*SURROGATES, "x" * 20_000, *HUGE, True, deep(100), {"": "x"}, {"env": "a\ud800b"},
                                ["a\ud800b"]])
HOSTILE_QUERY = st.sampled_from([*map(str, HUGE), "true", "x" * 5_000, DEEP, '{"": "x"}'])
HOSTILE_PATH = st.sampled_from(["s" * 10_000, "x" * 600])
# what each kind of field is sent, in a body and in a query (where JSON text stands for a scope)
HOSTILE_BY_SHAPE = {
    "int": (st.sampled_from([*HUGE, True]), st.sampled_from([*map(str, HUGE), "true"])),
    "float": (st.sampled_from([True, 2**70, 1.5, -1e308]), st.sampled_from(["true", str(2**70)])),
    "text": (st.sampled_from([*SURROGATES, "x" * 20_000]), st.just("x" * 5_000)),
    "time": (st.sampled_from([*SURROGATES, 1_700_000_000]), st.sampled_from(["1700000000", "x" * 5_000])),
    "scope": (st.sampled_from([{"": "x"}, {"env": "a\ud800b"}, {"a\ud800b": "x"}, deep(100)]),
              st.sampled_from([DEEP, '{"": "x"}', '{"env": "a\\ud800b"}', json.dumps({"env": deep(60)})])),
    "object": (st.sampled_from([*SURROGATES, deep(100), {"type": deep(100)}]), st.sampled_from([DEEP, "x" * 5_000])),
}


def _paths(value: Any, at: tuple = ()) -> list[tuple]:
    """Every place in a JSON value (its keys' values and list items, at any depth)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [p for key, item in items for p in [(*at, key), *_paths(item, (*at, key))]]


def _replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(copy[path[0]], path[1:], new)
    return copy


def _poisoned(value: Any, hostile_values: st.SearchStrategy) -> st.SearchStrategy:
    """The value with one place replaced by a hostile one."""
    places = _paths(value)
    if not places:
        return st.just(value)
    return st.builds(lambda p, v: _replaced(value, p, v), st.sampled_from(places), hostile_values)


def _operation(context) -> Any:
    return next((o for o in OPERATIONS if context.operation is not None and o.path == context.operation.path
                 and o.http_method == context.operation.method.upper()), None)


def _as_query(name: str, value: Any) -> Any:
    return json.dumps(value) if name == "scope" else "true" if value is True else value


def _sane(context, generated: dict[str, Any] | None, *, query: bool) -> st.SearchStrategy:
    """The command's required fields valid, then some of the generated optional ones (times valid)."""
    generated = dict(generated or {})
    op = _operation(context)
    if op is None:
        return st.just(generated)
    fields = {n: i for n, i in op.command.model_fields.items() if n not in op.path_params}
    base = {n: valid(n, i) for n, i in fields.items() if i.is_required()}
    optional = sorted(k for k in generated if k not in base)
    times = {n for n, i in fields.items() if shape(n, i) == "time"}

    def made(kept: list[str]) -> dict[str, Any]:
        data = base | {k: "2024-01-01" if k in times else generated[k] for k in kept}
        return {k: _as_query(k, v) for k, v in data.items()} if query else data

    return st.lists(st.sampled_from(optional), unique=True).map(made) if optional else st.just(made([]))


def _shapes(context) -> dict[str, str]:
    """The command's fields (path parameters aside) and their shapes."""
    op = _operation(context)
    if op is None:
        return {}
    return {n: shape(n, i) for n, i in op.command.model_fields.items() if n not in op.path_params}


def _hostile(sane: dict[str, Any], context, values: st.SearchStrategy, *, query: bool) -> st.SearchStrategy:
    """One place of `sane` replaced by a hostile value, or one field of the command set to a value hostile to its
    kind (an integer past 64 bits for an integer, a lone surrogate for a text, deep JSON for a scope, ...)."""
    choices = [_poisoned(sane, values)] if sane else []
    typed = [(n, HOSTILE_BY_SHAPE[k][query]) for n, k in _shapes(context).items() if k in HOSTILE_BY_SHAPE]
    if typed:
        choices.append(st.sampled_from(typed).flatmap(lambda pair: pair[1].map(lambda v: sane | {pair[0]: v})))
    return st.one_of(*choices) if choices else st.just(sane)


@hostile.hook("flatmap_body")
def _hostile_body(context, body):
    if not isinstance(body, dict):
        return st.just(body)
    return _sane(context, body, query=False).flatmap(lambda sane: _hostile(sane, context, HOSTILE_JSON, query=False))


@hostile.hook("flatmap_query")
def _hostile_query(context, query):
    # an unknown parameter in one request of four: it is refused before the store, so it would mask the rest
    unknown = st.sampled_from([False, False, False, True]).flatmap(
        lambda add: st.fixed_dictionaries({"valid_att": HOSTILE_QUERY}) if add else st.just({}))
    if context.operation is not None and context.operation.method.upper() == "POST":
        return unknown.map(lambda extra: (query or {}) | extra)

    def poisoned(sane: dict[str, Any]) -> st.SearchStrategy:
        lists = {k: v for k, v in sane.items() if isinstance(v, list)}  # `states`, `kinds`: repeated parameters
        plain = {k: v for k, v in sane.items() if k not in lists}
        return st.tuples(_hostile(plain, context, HOSTILE_QUERY, query=True), unknown).map(
            lambda pair: pair[0] | lists | pair[1])

    return _sane(context, query, query=True).flatmap(poisoned)


@hostile.hook("flatmap_path_parameters")
def _hostile_path(context, path_parameters):
    return st.one_of(st.just(path_parameters), _poisoned(path_parameters, HOSTILE_PATH))


@pytest.fixture(scope="module")
def shared_server(neo4j_db):
    """One live server and tenant for the hostile run (nothing it sends should get far)."""
    import threading
    import time

    import uvicorn

    from tests.api.conftest import LiveServer
    from tests.conftest import chat_replay

    with chat_replay([]) as replay:
        replay.exhausted = '{"candidates": []}'
        app = create_app(Settings(llm_base_url=replay.url, llm_model="replay"), db=neo4j_db, embedder=None)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            yield LiveServer(url=f"http://127.0.0.1:{port}", app=app), new_tenant(neo4j_db)
        finally:
            server.should_exit = True
            thread.join(timeout=10)


@hostile.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_route_answers_5xx_to_hostile_values(case, shared_server):
    server, tenant = shared_server
    case.call_and_validate(base_url=server.url, headers={"X-API-Key": tenant.key}, checks=CHECKS)
