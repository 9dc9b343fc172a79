"""Property-based run of every route against /openapi.json on a real uvicorn server: no 5xx, every response
(status, content type, body) conforms to the documented schema. Bounded: a few examples per operation."""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from credo.api.rest import create_app
from credo.settings import Settings
from tests.api.conftest import new_tenant

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
