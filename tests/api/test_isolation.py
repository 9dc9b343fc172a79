"""Tenant isolation over REST: the tenant comes from the key; another tenant's ids answer exactly like unknown ids
(404 for facts, versions, summaries, sources, conflicts and entities) on every route that takes an id; no key,
an unknown key or a revoked key answers 401."""

from __future__ import annotations

import pytest

from credo.schema.operations import OPERATIONS
from credo.services.access import api_keys
from credo.services.recall import utility
from credo.services.verify.review import ReviewQueue
from credo.store import Store

# a valid body per route that takes an id, so the answer is about the id, never about the body ("{name}": the id)
BODIES = {
    "correct_fact": {"statement": "changed"}, "succeed_fact": {"object": "Zed", "at": "2025-06-01"},
    "end_fact": {"at": "2025-06-01"}, "retract_fact": {"reason": "wrong"}, "resolve_conflict": {"decision": "reject"},
    "cite": {"source_id": "s_unknown"}, "accept": {"message": {"session_id": "d", "index": 0}},
    "admit": {"by": "policy"}, "reject": {"reason": "no"}, "reverify": {"outcome": "holds", "note": "checked again"},
    "justify": {"premises": ["f_unknown"]}, "remember": {"quote": "Agreed, disable it.", "content": "disable cache"},
    "ingest_messages": None, "extract": {}, "deprecate": {"reason": "outdated", "actor": "ops"},
    "feedback": {"fact_id": "{fact_id}", "outcome": "useful"},
    "forget": {"reason": "asked", "actor": "dpo"}, "forget_subject": {"reason": "asked", "actor": "dpo"},
    "recipe_outcome": {"outcome": "failure"}, "consent_recipe": {"accept": False},
    "review": {"decision": "approve"}, "consent": {"decision": "delete"},
    "preference_outcome": {"outcome": "rejected"},
}
ID_ROUTES = [op for op in OPERATIONS if op.path_params and op.name != "ingest_messages"]


@pytest.fixture
def tenant_b_data(neo4j_db, tenant_b):
    """Tenant B's objects: a fact (and its versions), a conflict, an entity, a source, a session, a summary."""
    b = Store(neo4j_db, tenant=tenant_b.name, embedder=None, _owns_db=False)
    alice = b.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    b.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")  # a conflict
    [conflict] = b.conflicts()
    source = b.add_source("document", "Acme's register", title="register")
    b.ingest_messages("d", [{"index": 0, "role": "user", "origin": "human_input", "author": "bo",
                             "text": "Agreed, disable it.", "at": "2025-01-01T00:00:00+00:00"}])
    summary = b.add_summary("Acme's owner", derived_from=[alice.fact_id])
    b.context("Acme", task="b-task")  # a task with a read receipt
    utility.record_recalls(b._ctx, receipt_id="r_b", fact_ids=[alice.fact_id])  # a recall B's feedback could name
    shown = b.add_source("tool_result", "Acme's register was updated")
    recipe = b.record_recipe("update the register", ["open it", "write"], because=shown.source_id, user_facing=True)
    queued = Store(neo4j_db, tenant=tenant_b.name, embedder=None, _owns_db=False, verifier=ReviewQueue())
    item = queued.verify(alice.fact_id).review_item
    return {"item_id": item.item_id, "receipt_id": "r_b", "fact_id": alice.fact_id, "version_id": alice.version_id, "conflict_id": conflict.conflict_id,
            "summary_id": summary.summary_id, "source_id": source.source_id, "session_id": "d", "entity": "Acme",
            "task": "b-task", "target_id": alice.fact_id, "recipe_id": recipe.recipe_id}


def call(api, op, ids: dict[str, str], headers):
    """Call an operation's route with the given path ids and its sample body."""
    path = op.path
    for name in op.path_params:
        path = path.replace("{" + name + "}", ids[name])
    if op.http_method == "GET":
        return api.get(path, headers=headers)
    body = {k: ids[v[1:-1]] if isinstance(v, str) and v.startswith("{") else v
            for k, v in (BODIES.get(op.name) or {}).items()}
    return api.post(path, json=body, headers=headers)


UNKNOWN = {"receipt_id": "r_unknown", "fact_id": "f_00000000000000000000", "conflict_id": "c_00000000000000000000",
           "summary_id": "m_00000000000000000000", "session_id": "no-such-session", "entity": "No Such Entity",
           "task": "no-such-task", "target_id": "f_00000000000000000000",
           "recipe_id": "r_00000000000000000000", "item_id": "rq_00000000000000000000"}


@pytest.mark.parametrize("op", ID_ROUTES, ids=[op.name for op in ID_ROUTES])
def test_another_tenants_id_answers_exactly_like_an_unknown_id(api, tenant_a, tenant_b_data, op):
    theirs = call(api, op, tenant_b_data, tenant_a.headers)
    unknown = call(api, op, UNKNOWN, tenant_a.headers)
    assert (theirs.status_code, theirs.json().get("code")) == (unknown.status_code, unknown.json().get("code"))
    if set(op.path_params) & {"fact_id", "conflict_id", "summary_id", "entity", "task", "target_id",
                                "recipe_id", "item_id"}:
        assert theirs.status_code == 404, theirs.json()
    assert "Alice" not in theirs.text and "register" not in theirs.text  # the id echoed back is the caller's own


@pytest.mark.parametrize("op_name", ["history", "why", "correct_fact", "retract_fact"])
def test_another_tenants_version_id_is_404_too(api, tenant_a, tenant_b_data, op_name):
    op = next(o for o in OPERATIONS if o.name == op_name)
    answer = call(api, op, {"fact_id": tenant_b_data["version_id"]}, tenant_a.headers)
    assert answer.status_code == 404, answer.json()


def test_citing_another_tenants_source_is_404_and_writes_nothing(api, tenant_a, tenant_b_data):
    mine = api.post("/v1/facts", json={"subject": "Acme", "predicate": "owned_by", "object": "Carol"},
                    headers=tenant_a.headers).json()["result"]
    answer = api.post(f"/v1/facts/{mine['fact_id']}/cite", json={"source_id": tenant_b_data["source_id"]},
                      headers=tenant_a.headers)
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_the_tenant_comes_from_the_key_and_lists_show_only_its_own_data(api, tenant_a, tenant_b, tenant_b_data):
    listed = api.get("/v1/facts", params={"subject": "Acme"}, headers=tenant_a.headers).json()
    assert listed == {"items": [], "undated": [], "next_cursor": None, "unreadable": []}
    theirs = api.get("/v1/facts", params={"subject": "Acme"}, headers=tenant_b.headers).json()["items"]
    assert [f["object_name"] for f in theirs] == ["Alice"]
    smuggled = api.post("/v1/facts", json={"subject": "X", "predicate": "p", "object": "Y", "tenant": tenant_b.name},
                        headers=tenant_a.headers)
    assert smuggled.status_code == 422 and smuggled.json()["field"] == "tenant"


def test_no_key_an_unknown_key_and_a_revoked_key_answer_401(api, neo4j_db, tenant_a):
    assert api.get("/v1/stale", headers=tenant_a.headers).status_code == 200
    assert api.get("/v1/stale", headers={"Authorization": f"Bearer {tenant_a.key}"}).status_code == 200
    for headers in ({}, {"X-API-Key": tenant_a.key + "x"}, {"X-API-Key": "credo_nope_nope"}):
        answer = api.get("/v1/stale", headers=headers)
        assert answer.status_code == 401 and answer.json()["code"] == "unauthenticated"
        assert answer.headers["content-type"].startswith("application/problem+json")
    api_keys.revoke_key(neo4j_db, key_id=tenant_a.key_id)
    revoked = api.get("/v1/stale", headers=tenant_a.headers)
    assert revoked.status_code == 401 and "revoked" in revoked.json()["detail"]
    assert api.get("/health").status_code == 200


def test_auth_off_acts_in_the_configured_tenant_and_says_so_loudly(neo4j_db, tenant, caplog):
    from fastapi.testclient import TestClient

    from credo.api.rest import create_app
    from credo.settings import Settings

    with caplog.at_level("WARNING", logger="credo.api"):
        with TestClient(create_app(Settings(auth=False, tenant=tenant), db=neo4j_db, embedder=None),
                        base_url="http://127.0.0.1:8080") as api:
            made = api.post("/v1/facts", json={"subject": "Dev", "predicate": "uses", "object": "laptop"})
            assert made.status_code == 201 and made.json()["result"]["tenant"] == tenant
    assert any("CREDO_AUTH=off" in r.getMessage() for r in caplog.records)


def test_a_keyless_development_server_refuses_a_host_outside_the_allow_list(neo4j_db, tenant):
    """DNS rebinding: a page whose name now points at 127.0.0.1 must not drive a CREDO_AUTH=off server."""
    from fastapi.testclient import TestClient

    from credo.api.rest import create_app
    from credo.settings import Settings

    app = create_app(Settings(auth=False, tenant=tenant), db=neo4j_db, embedder=None)
    with TestClient(app, base_url="http://attacker.example:8080") as api:
        refused = api.post("/v1/facts", json={"subject": "Dev", "predicate": "uses", "object": "laptop"})
        assert refused.status_code == 421 and refused.json()["code"] == "host_not_allowed"
        assert api.get("/v1/facts").status_code == 421
    with TestClient(app, base_url="http://localhost:8080") as api:
        assert api.get("/v1/facts").status_code == 200
