"""Verification on the surfaces: the verifier is composed once from settings (CREDO_VERIFIER, credo/bootstrap.py),
so REST and the CLI run the same one; the review queue is a curator's (its scope), decided over REST and the CLI."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from fastapi.testclient import TestClient

from credo.api.rest.app import create_app
from credo.bootstrap import verifier_for
from credo.schema.errors import ConfigError
from credo.services.access import api_keys
from credo.services.verify.llm import LLMVerifier
from credo.services.verify.review import ReviewQueue
from credo.services.verify.rules import RuleVerifier
from credo.settings import Settings
from credo.store import Store
from tests.api.cli.test_cli import run

MESSAGE = "Heads up: don't migrate the orders table while API v1 reads it."


def seeded(neo4j_db, tenant: str) -> str:
    """A fact in `tenant` whose statement drops its message's condition; its id."""
    store = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False)
    store.ingest_messages("w", [{"index": 0, "role": "user", "origin": "human_input", "author": "alice",
                                 "text": MESSAGE, "at": datetime(2025, 6, 1, tzinfo=timezone.utc)}])
    return store.turn("w").remember("don't migrate the orders table", "Never migrate the orders table",
                                    subject="orders table", predicate="migration_policy",
                                    object="never migrate").fact_id


@pytest.mark.parametrize(("choice", "kind"), [("none", type(None)), ("rules", RuleVerifier), ("review", ReviewQueue)])
def test_the_composition_root_builds_the_configured_verifier(choice, kind):
    assert isinstance(verifier_for(Settings(verifier=choice)), kind)


def test_the_llm_verifier_is_built_from_the_llm_settings_and_an_unknown_choice_is_refused():
    assert isinstance(verifier_for(Settings(verifier="llm", llm_base_url="http://127.0.0.1:9/v1", llm_model="m")),
                      LLMVerifier)
    with pytest.raises(ConfigError, match="CREDO_VERIFIER"):
        verifier_for(Settings(verifier="oracle"))
    with pytest.raises(ConfigError, match="CREDO_LLM"):
        verifier_for(Settings(verifier="llm", llm_base_url=None, llm_model=None))


def test_over_rest_the_configured_rules_verifier_records_a_verdict_that_why_shows(neo4j_db, tenant_a):
    fact_id = seeded(neo4j_db, tenant_a.name)
    with TestClient(create_app(Settings(verifier="rules"), db=neo4j_db, embedder=None)) as api:
        answer = api.post(f"/v1/facts/{fact_id}/verify", headers=tenant_a.headers, json={})
        assert answer.status_code == 200, answer.text
        outcome = answer.json()["result"]
        assert (outcome["status"], outcome["verified_by"]["overreach_kind"]) == ("verified", "condition_dropped")
        why = api.get(f"/v1/facts/{fact_id}/why", headers=tenant_a.headers).json()
        assert why["verified_by"]["verdict"] == "overreach" and why["evidence"] == "stated"


def test_over_rest_the_llm_verifier_past_its_bound_answers_429_naming_the_limit(neo4j_db, tenant_a, chat_endpoint):
    fact_id = seeded(neo4j_db, tenant_a.name)
    supported = json.dumps({"verdict": "supported", "overreach_kind": None, "reason": "says the same"})
    with chat_endpoint([supported] * 3) as replay:
        settings = Settings(verifier="llm", llm_base_url=replay.url, llm_model="m", verifier_per_minute=1)
        with TestClient(create_app(settings, db=neo4j_db, embedder=None)) as api:
            assert api.post(f"/v1/facts/{fact_id}/verify", headers=tenant_a.headers, json={}).status_code == 200
            refused = api.post(f"/v1/facts/{fact_id}/verify", headers=tenant_a.headers, json={})
            spec = api.get("/openapi.json").json()["paths"]["/v1/facts/{fact_id}/verify"]["post"]["responses"]
    assert refused.status_code == 429, refused.text
    problem = refused.json()
    assert (problem["code"], problem["field"], problem["retryable"]) == ("rate_limited", "verifier_per_minute", True)
    assert "CREDO_VERIFIER_PER_MINUTE" in problem["rule"] and 1 <= int(refused.headers["Retry-After"]) <= 60
    assert len(replay.requests) == 1 and "429" in spec  # the endpoint was asked once; the route documents 429


def test_over_rest_with_no_verifier_a_fact_reads_not_verified(api, neo4j_db, tenant_a):
    fact_id = seeded(neo4j_db, tenant_a.name)
    answer = api.post(f"/v1/facts/{fact_id}/verify", headers=tenant_a.headers, json={})
    assert answer.status_code == 200 and answer.json()["result"]["status"] == "not verified"
    assert api.get(f"/v1/facts/{fact_id}/why", headers=tenant_a.headers).json()["verification"] == "not verified"


def test_over_rest_the_review_queue_is_paged_and_a_curators_decision_is_recorded(neo4j_db, tenant_a):
    first = seeded(neo4j_db, tenant_a.name)
    second = Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False).add_fact("cache", "ttl", "300 s")
    agent = api_keys.create_key(neo4j_db, tenant=tenant_a.name, scopes=["agent"]).secret
    with TestClient(create_app(Settings(verifier="review"), db=neo4j_db, embedder=None)) as api:
        h = tenant_a.headers
        for fact_id in (first, second.fact_id):
            assert api.post(f"/v1/facts/{fact_id}/verify", headers=h, json={}).json()["result"]["status"] == "queued"
        page = api.get("/v1/reviews", headers=h, params={"limit": 1}).json()
        [item] = page["items"]
        assert (item["statement"], item["excerpt"]["text"]) == ("Never migrate the orders table", MESSAGE)
        rest = api.get("/v1/reviews", headers=h, params={"limit": 1, "cursor": page["next_cursor"]}).json()
        assert [i["fact_id"] for i in rest["items"]] == [second.fact_id]
        # an agent's key may verify (write) but neither list the queue nor decide (curate)
        assert api.get("/v1/reviews", headers={"X-API-Key": agent}).status_code == 403
        assert api.post(f"/v1/reviews/{item['item_id']}", headers={"X-API-Key": agent},
                        json={"decision": "approve"}).status_code == 403
        bad = api.post(f"/v1/reviews/{item['item_id']}", headers=h, json={"decision": "edit"})
        assert (bad.status_code, bad.json()["code"]) == (422, "invalid_input") and "statement" in bad.text
        done = api.post(f"/v1/reviews/{item['item_id']}", headers=h, json={"decision": "reject", "reason": "no"})
        assert done.status_code == 200 and done.json()["result"]["state"] == "rejected", done.text
        assert [i["fact_id"] for i in api.get("/v1/reviews", headers=h).json()["items"]] == [second.fact_id]


def test_the_cli_verifies_with_the_configured_verifier_lists_and_decides(neo4j_db, tenant, cli_env):
    fact_id = seeded(neo4j_db, tenant)
    ruled = run(["verify", fact_id, "--json"], {**cli_env, "CREDO_VERIFIER": "rules"})
    assert ruled.returncode == 0, ruled.stderr
    assert json.loads(ruled.stdout)["verified_by"]["overreach_kind"] == "condition_dropped"
    queued = run(["verify", fact_id], {**cli_env, "CREDO_VERIFIER": "review"})
    assert "queued for review as rq_" in queued.stdout, queued.stderr
    listed = run(["reviews"], cli_env)
    assert "Never migrate the orders table" in listed.stdout and MESSAGE in listed.stdout
    item_id = json.loads(run(["reviews", "--json"], cli_env).stdout)[0]["item_id"]
    decided = run(["review", item_id, "edit", "--statement", "Don't migrate the orders table while API v1 reads it",
                   "--json"], cli_env)
    assert decided.returncode == 0 and json.loads(decided.stdout)["state"] == "edited", decided.stderr
    assert "no pending review item" in run(["reviews"], cli_env).stdout
