"""A bulk import over HTTP never holds a worker for minutes: past CREDO_MAX_HTTP_ROWS rows a request is refused
with the limit (413 `too_large` naming `rows`), before anything is embedded or written; `credo import` streams a
larger file in batches with progress."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from credo.api.rest import create_app
from credo.settings import Settings
from credo.store import Store


@pytest.fixture
def small(neo4j_db):
    app = create_app(Settings(max_http_rows=20), db=neo4j_db, embedder=None)
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize("path", ["/v1/facts/import", "/v1/facts/batch"])
def test_a_bulk_request_past_the_row_limit_is_refused_with_the_limit_and_writes_nothing(small, neo4j_db, tenant_a,
                                                                                       path):
    rows = [{"subject": f"acct {i}", "predicate": "owned_by", "object": f"owner {i}"} for i in range(21)]
    refused = small.post(path, headers=tenant_a.headers, json={"rows": rows})
    assert refused.status_code == 413, refused.text
    problem = refused.json()
    assert (problem["code"], problem["field"]) == ("too_large", "rows")
    assert "at most 20 rows" in problem["rule"] and "credo import" in problem["rule"]
    assert list(Store(neo4j_db, tenant=tenant_a.name, _owns_db=False).facts()) == []
    within = small.post(path, headers=tenant_a.headers, json={"rows": rows[:20]})
    assert within.status_code in (200, 201), within.text


def test_the_default_row_limit_keeps_a_request_under_a_minute_of_embedding():
    # all-MiniLM-L6-v2 embeds about 790 statements/s on this project's 2-core machine (README): 10,000 rows ~ 13 s
    assert Settings().max_http_rows == 10_000
