"""An entity whose name contains "/" ("CI/CD") is reached by name on every route and inspector page that takes one:
relations, versions, forget_subject, /ui/entities/{entity} and its JSON twin — raw or as %2F (issue 24 §8)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from credo.client import Client
from credo.store import Store
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_pages import login

# names a path segment alone could not carry; the last one ends in a route's own suffix
NAMES = ["CI/CD", "TCP/IP/v6", "ops/relations", "deploys/versions.json"]


def forms(name: str) -> list[str]:
    """The name as a path carries it: raw, and escaped (%2F)."""
    return [name, quote(name, safe="")]


def given_facts(neo4j_db, tenant: str, name: str) -> Store:
    store = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False)
    store.add_fact(name, "owned_by", "Platform team", valid_from="2024-01-01")
    store.add_fact("Release train", "depends_on", name, valid_from="2024-02-01")
    store.add_fact("CI", "owned_by", "Someone else", valid_from="2024-01-01")  # a prefix of the name, not the name
    return store


@pytest.mark.parametrize("name", NAMES)
def test_relations_and_versions_reach_a_name_with_a_slash_raw_and_escaped(api, tenant_a, neo4j_db, name):
    given_facts(neo4j_db, tenant_a.name, name)
    for form in forms(name):
        related = api.get(f"/v1/entities/{form}/relations", headers=tenant_a.headers,
                          params={"valid_at": "2024-06-01"})
        assert related.status_code == 200, (form, related.text)
        assert sorted(r["other"] for r in related.json()["items"]) == ["Platform team", "Release train"]
        versions = api.get(f"/v1/entities/{form}/versions", headers=tenant_a.headers)
        assert versions.status_code == 200, (form, versions.text)
        assert [v["predicate"] for v in versions.json()["items"]] == ["owned_by"]  # its own facts


@pytest.mark.parametrize("escaped", [False, True], ids=["raw", "escaped"])
def test_forget_subject_reaches_a_name_with_a_slash_and_only_it(api, tenant_a, neo4j_db, escaped):
    store = given_facts(neo4j_db, tenant_a.name, "CI/CD")
    path = quote("CI/CD", safe="") if escaped else "CI/CD"
    job = api.post(f"/v1/entities/{path}/forget", headers=tenant_a.headers,
                   json={"reason": "renamed", "actor": "ops"})
    assert job.status_code == 200, job.text
    assert job.json()["result"]["state"] == "complete"
    assert [f.subject for f in store.facts(valid_at="2024-06-01")] == ["CI"]


def test_the_inspector_timeline_and_its_json_twin_reach_a_name_with_a_slash(api, tenant_a, neo4j_db):
    given_facts(neo4j_db, tenant_a.name, "CI/CD")
    login(api, tenant_a)
    for form in forms("CI/CD"):
        twin = api.get(f"/ui/entities/{form}.json", params={"valid_at": "2024-06-01T00:00:00Z"})
        assert twin.status_code == 200, (form, twin.text)
        assert twin.json()["entity"] == "CI/CD" and [f["object_name"] for f in twin.json()["as_of"]] == [
            "Platform team"]
        page = api.get(f"/ui/entities/{form}")
        assert page.status_code == 200 and "Platform team" in page.text
    # the entities list links the name to a page that answers
    listing = api.get("/ui/entities")
    assert 'href="/ui/entities/CI/CD"' in listing.text


def test_the_client_reaches_a_name_with_a_slash(live_server, neo4j_db):
    tenant = new_tenant(neo4j_db)
    given_facts(neo4j_db, tenant.name, "CI/CD")
    with Client(live_server.url, tenant.key) as client:
        assert sorted(r.other for r in client.relations("CI/CD", valid_at="2024-06-01")) == [
            "Platform team", "Release train"]
        assert [v.predicate for v in client.entity_versions("CI/CD")] == ["owned_by"]
        job = client.forget_subject("CI/CD", reason="renamed", actor="ops")
        assert job.state == "complete"
        assert [f.subject for f in client.facts(valid_at="2024-06-01")] == ["CI"]
