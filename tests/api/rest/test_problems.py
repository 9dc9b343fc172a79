"""The one error table: each class answers its status and code, the client rebuilds the same class, an upstream
LLM failure is a 502, and bad input is never a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from credo.api.problems import error_for, problem_for
from credo.api.rest import create_app
from credo.schema.errors import (
    ConfigError,
    ConflictError,
    CredoError,
    DatabaseUnavailable,
    EvidenceRefused,
    InvalidInput,
    NotCurrent,
    NotFound,
    RaceLost,
    TransitionRefused,
    Unauthenticated,
    UpstreamFailed,
)
from credo.settings import Settings
from tests.api.conftest import new_tenant


@pytest.mark.parametrize(
    "error, status, code",
    [
        (Unauthenticated("no key"), 401, "unauthenticated"),
        (NotFound("fact", "f_1"), 404, "not_found"),
        (InvalidInput("valid_to", "must be later"), 422, "invalid_input"),
        (EvidenceRefused("quote", "not verbatim"), 422, "evidence_refused"),
        (RaceLost("graph", "raced"), 409, "race_lost"),
        (NotCurrent("v_1", "superseded"), 409, "not_current"),
        (ConflictError("f_1", "would change established knowledge"), 409, "rule_refused"),
        (TransitionRefused("f_1", "forgotten", "active"), 409, "transition_refused"),
        (UpstreamFailed("LLM endpoint failed"), 502, "upstream_failed"),
        (DatabaseUnavailable("bolt://x", "down"), 503, "database_unavailable"),
        (ConfigError("no LLM"), 503, "not_configured"),
        (CredoError("boom"), 500, "internal"),
        (ValueError("secret detail"), 500, "internal"),
    ],
)
def test_each_error_class_answers_its_status_and_code_and_round_trips(error, status, code):
    problem = problem_for(error, request_id="r1")
    assert (problem.status, problem.code, problem.request_id) == (status, code, "r1")
    if status == 500:
        assert "secret detail" not in problem.detail and "boom" not in problem.detail
        return
    rebuilt = error_for(problem.model_dump())
    assert type(rebuilt) is type(error) and rebuilt.message == error.message
    assert getattr(rebuilt, "field", None) == getattr(error, "field", None)
    assert problem.rule == ("lifecycle" if isinstance(error, TransitionRefused) else getattr(error, "rule", None))


def test_an_upstream_llm_failure_answers_502_and_consumes_nothing(neo4j_db, chat_endpoint):
    tenant = new_tenant(neo4j_db)
    with chat_endpoint(["this is not json"]) as replay:
        replay.exhausted = "still not json"
        settings = Settings(llm_base_url=replay.url, llm_model="replay")
        with TestClient(create_app(settings, db=neo4j_db, embedder=None)) as api:
            api.post("/v1/sessions/s/messages", headers=tenant.headers, json={"messages": [
                {"index": 0, "role": "user", "origin": "human_input", "text": "We moved to Postgres 16.",
                 "at": "2025-01-01T00:00:00Z"}]})
            answer = api.post("/v1/sessions/s/extract", headers=tenant.headers, json={})
            assert answer.status_code == 502 and answer.json()["code"] == "upstream_failed"
            again = api.post("/v1/sessions/s/extract", headers=tenant.headers, json={})
            assert again.status_code == 502  # the messages were left unconsumed


@pytest.mark.parametrize("body", [{"subject": "A"}, {"subject": "A", "predicate": "p", "object": True},
                                  {"subject": "A", "predicate": "p", "object": [1, 2]},
                                  {"subject": "", "predicate": "p", "object": "x"},
                                  {"subject": "A", "predicate": "p", "object": "x", "valid_from": "yesterday"}])
def test_bad_input_is_422_naming_the_field_never_500(api, tenant_a, body):
    answer = api.post("/v1/facts", json=body, headers=tenant_a.headers)
    assert answer.status_code == 422 and answer.json()["field"]
