"""Bad input over REST is a 4xx naming the field as it was sent, never a 5xx, and writes nothing: a lone surrogate in
every text field, 2**63 and 2**70 in every integer field, `true` for every number, a number for every time,
5,000-deep JSON, a 10 KB session id, a 50 MB body, an unknown query parameter. The tables come from the command
models (tests/hostile.py), so a field added later is covered without a line here."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from credo.api.rest import create_app
from credo.schema.operations import BY_NAME, Operation
from credo.settings import Settings
from tests.api.conftest import Tenant, new_tenant
from tests.hostile import (
    MESSAGE,
    NOTHING,
    Bad,
    deep,
    deep_json,
    held,
    numbers,
    required,
    surrogates,
    too_long,
)


@pytest.fixture(scope="module")
def rest(neo4j_db) -> Iterator[TestClient]:
    """One app for the module's many refusals (each is refused before the store is touched)."""
    app = create_app(Settings(), db=neo4j_db, embedder=None)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def key(neo4j_db) -> Tenant:
    """The module's tenant: nothing may ever be written in it (its key cleared for all: it reads the ledger too)."""
    return new_tenant(neo4j_db, clearance="all")


@pytest.fixture
def nothing_written(neo4j_db, key) -> Iterator[None]:
    """After the test, the tenant still holds nothing (its API key aside)."""
    yield
    assert held(neo4j_db, key.name) == NOTHING


def call(client: TestClient, op: Operation, fields: dict[str, Any], headers: dict[str, str],
         query: dict[str, Any] | None = None) -> Any:
    """The operation's request: path parameters in the path, a GET's fields as query parameters (scope as JSON
    text), a POST's as a JSON body written with \\u escapes (so a lone surrogate travels as JSON allows)."""
    fields = dict(fields)
    path = re.sub(r"\{(\w+)(:\w+)?\}", lambda m: quote(str(fields.pop(m.group(1))), safe=""), op.path)
    if op.http_method == "GET":
        params = {k: json.dumps(v) if k == "scope" else "true" if v is True else v for k, v in fields.items()}
        return client.get(path, params=params | (query or {}), headers=headers)
    return client.post(path, content=json.dumps(fields), params=query or {},
                       headers={**headers, "content-type": "application/json"})


def assert_refused(answer: Any, named: str) -> None:
    """A 422 invalid_input problem naming the field."""
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert (problem["code"], problem["field"]) == ("invalid_input", named), problem


def _sendable(bad: Bad) -> bool:
    """A lone surrogate reaches a route only inside JSON: a POST body, or a GET's `scope` (a URL's percent-encoding
    of one decodes to replacement characters)."""
    op = BY_NAME[bad.operation]
    return bad.field not in op.path_params and (op.http_method == "POST" or bad.field == "scope")


@pytest.mark.parametrize("bad", [b for b in surrogates() if _sendable(b)], ids=str)
def test_a_lone_surrogate_in_any_text_field_is_refused_naming_it(rest, key, nothing_written, bad):
    op = BY_NAME[bad.operation]
    assert_refused(call(rest, op, bad.fields(op.command), key.headers), bad.named)


@pytest.mark.parametrize("bad", numbers(), ids=str)
def test_integers_past_64_bits_booleans_and_numeric_times_are_refused_naming_the_field(rest, key, nothing_written,
                                                                                       bad):
    op = BY_NAME[bad.operation]
    assert_refused(call(rest, op, bad.fields(op.command), key.headers), bad.named)


@pytest.mark.parametrize("bad", too_long(), ids=str)
def test_20_kb_in_any_text_field_is_refused_naming_it(rest, key, nothing_written, bad):
    op = BY_NAME[bad.operation]
    # a GET's list of text (`states`, `kinds`) is a repeated query parameter: its first value is named
    listed = op.http_method == "GET" and bad.field in ("states", "kinds")
    assert_refused(call(rest, op, bad.fields(op.command), key.headers), bad.named + ".0" * listed)


@pytest.mark.parametrize("op", [op for op in BY_NAME.values()], ids=lambda op: op.name)
def test_an_unknown_query_parameter_is_refused_by_its_name_like_an_unknown_body_field(rest, key, nothing_written, op):
    answer = call(rest, op, required(op.command), key.headers, query={"valid_att": "2024-01-01"})
    assert_refused(answer, "valid_att")
    assert "not a parameter" in answer.json()["rule"]


@pytest.mark.parametrize("route", ["/v1/facts", "/v1/search?query=x", "/v1/context?query=x"])
def test_5000_deep_json_in_the_scope_query_is_refused_naming_scope(rest, key, nothing_written, route):
    answer = rest.get(route, params={"scope": deep_json(5000)}, headers=key.headers)
    assert_refused(answer, "scope")


def test_5000_deep_json_in_a_body_is_refused_before_it_is_parsed(rest, key, nothing_written):
    body = '{"subject": "a", "predicate": "p", "object": "o", "scope": ' + deep_json(5000) + "}"
    answer = rest.post("/v1/facts", content=body, headers={**key.headers, "content-type": "application/json"})
    assert_refused(answer, "body")
    assert "deeper than 64" in answer.json()["rule"]


def test_a_value_nested_past_the_bound_is_refused_naming_its_field(rest, key, nothing_written):
    answer = rest.post("/v1/facts", json={"subject": "a", "predicate": "p", "object": deep(40)}, headers=key.headers)
    assert_refused(answer, "object")


@pytest.mark.parametrize("route", ["messages", "remember", "extract"])
def test_a_10_kb_session_id_in_the_path_is_refused_naming_session_id(rest, key, nothing_written, route):
    op = next(op for op in BY_NAME.values() if op.path == f"/v1/sessions/{{session_id}}/{route}")
    fields = required(op.command) | {"session_id": "s" * 10_000}
    assert_refused(call(rest, op, fields, key.headers), "session_id")


def test_a_50_mb_body_answers_413_before_it_is_parsed(rest, key, nothing_written):
    answer = rest.post("/v1/facts", content=b'{"subject": "' + b"x" * 50_000_000 + b'"}',
                       headers={**key.headers, "content-type": "application/json"})
    assert answer.status_code == 413
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["code"] == "too_large" and "4,194,304 bytes" in answer.json()["detail"]


def test_a_body_streamed_past_the_limit_without_a_length_answers_413(rest, key, nothing_written):
    def chunks() -> Iterator[bytes]:
        yield b'{"subject": "'
        for _ in range(50):
            yield b"x" * 100_000

    answer = rest.post("/v1/facts", content=chunks(), headers={**key.headers, "content-type": "application/json"})
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"


def test_the_bulk_routes_take_a_larger_body_under_their_own_limit(neo4j_db, key):
    app = create_app(Settings(max_body_bytes=64 * 1024, max_bulk_body_bytes=256 * 1024), db=neo4j_db, embedder=None)
    rows = [{"subject": f"s{i}", "predicate": "p", "object": "o", "statement": "x" * 900} for i in range(150)]
    body = json.dumps({"rows": rows})
    assert 64 * 1024 < len(body) < 256 * 1024
    tenant = new_tenant(neo4j_db)
    headers = {**tenant.headers, "content-type": "application/json"}
    with TestClient(app) as client:
        # an ordinary route refuses the body the bulk routes accept
        assert client.post("/v1/facts", content=body, headers=headers).status_code == 413
        assert client.post("/v1/facts/batch", content=body, headers=headers).status_code == 201
        bigger = json.dumps({"rows": rows * 2})
        assert client.post("/v1/facts/import", content=bigger, headers=headers).status_code == 413


def test_a_refused_body_names_the_row_and_field_as_sent(rest, key, nothing_written):
    rows = [{"subject": "a", "predicate": "p", "object": "o"}, {"subject": "b", "predicate": "p", "object": "o",
                                                                  "confidence": True}]
    assert_refused(rest.post("/v1/facts/batch", json={"rows": rows}, headers=key.headers), "rows.1.confidence")


def test_a_list_or_text_field_is_named_without_pydantics_union_member_names(rest, key, nothing_written):
    answer = rest.post("/v1/facts/f_x/reverify", content=json.dumps({"evidence": ["s_1", "a\ud800b"]}),
                       headers={**key.headers, "content-type": "application/json"})
    assert_refused(answer, "evidence.1")
    assert "lone surrogate" in answer.json()["rule"]


def test_an_empty_scope_key_is_refused(rest, key, nothing_written):
    assert_refused(rest.get("/v1/facts", params={"scope": '{"": "x"}'}, headers=key.headers), "scope")
    answer = rest.post("/v1/facts", json={"subject": "a", "predicate": "p", "object": "o", "scope": {"": "x"}},
                       headers=key.headers)
    assert_refused(answer, "scope")


def test_a_message_time_must_be_text_not_a_number(rest, key, nothing_written):
    answer = rest.post("/v1/sessions/s1/messages", json={"messages": [{**MESSAGE, "at": 1_700_000_000}]},
                       headers=key.headers)
    assert_refused(answer, "messages[0].at")
    assert "time text" in answer.json()["rule"]


@pytest.mark.parametrize("cursor", [{"o": 2**70, "k": None, "q": "0"}, {"o": 0, "k": {"x": "y"}, "q": "0"},
                                    deep_json(150), "x" * 10_000], ids=["huge offset", "odd time", "deep", "10 KB"])
def test_a_forged_cursor_is_refused_not_a_5xx(rest, key, nothing_written, cursor):
    import base64

    text = cursor if isinstance(cursor, str) and len(cursor) > 1000 else base64.urlsafe_b64encode(
        (cursor if isinstance(cursor, str) else json.dumps(cursor)).encode()).decode()
    assert_refused(rest.get("/v1/facts", params={"cursor": text}, headers=key.headers), "cursor")


@pytest.mark.parametrize("row, named", [
    ({"subject": "a\ud800b"}, "subject"), ({"confidence": True}, "confidence"), ({"valid_from": 1_700_000_000},
                                                                                  "valid_from"),
    ({"scope": {"": "x"}}, "scope"), ({"statement": "x" * 20_000}, "statement"), ({"object": deep(40)}, "object"),
], ids=["surrogate", "true confidence", "numeric time", "empty scope key", "20 KB statement", "deep object"])
def test_a_hostile_import_row_stops_the_import_naming_its_row_and_field(rest, key, nothing_written, row, named):
    rows = [{"subject": "a", "predicate": "p", "object": "o"} | row]
    answer = rest.post("/v1/facts/import", content=json.dumps({"rows": rows}),
                       headers={**key.headers, "content-type": "application/json"})
    assert answer.status_code == 200, answer.text  # an import reports its first bad row rather than failing
    report = answer.json()["result"]
    assert report["committed"] == [] and (report["error"]["row"], report["error"]["field"]) == (0, named)


@pytest.mark.parametrize("route, params", [
    ("/v1/audit", {"after": 0, "limit": 5}), ("/v1/context", {"query": "x", "budget_tokens": 400}),
    ("/v1/search", {"query": "x", "limit": 5}), ("/v1/paths", {"a": "x", "b": "y", "max_hops": 2}),
    ("/v1/facts", {"include_undated": "false", "limit": 10}),
])
def test_integer_query_parameters_in_range_are_read_as_integers(rest, key, route, params):
    answer = rest.get(route, params=params, headers=key.headers)
    assert answer.status_code in (200, 404), answer.text  # answered (paths: no such entity), never refused as input
