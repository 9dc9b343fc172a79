"""Lifecycle acts over REST: deprecate, quarantine, release, each with a reason and an actor; refusals are problems."""

from __future__ import annotations


def _fact(api, tenant, subject, obj):
    answer = api.post("/v1/facts", json={"subject": subject, "predicate": "uses", "object": obj,
                                         "valid_from": "2024-01-01"}, headers=tenant.headers)
    assert answer.status_code in (200, 201), answer.json()
    return answer.json()["result"]


def _served(api, tenant, subject, **params):
    items = api.get("/v1/facts", params={"subject": subject, **params}, headers=tenant.headers).json()["items"]
    return [f["fact_id"] for f in items]


def test_deprecate_quarantine_and_release_over_rest(api, tenant_a, tenant_b):
    # given a fact, and a second fact cited from a suspicious source
    old = _fact(api, tenant_a, "Team", "Jenkins")
    src = api.post("/v1/sources", json={"kind": "document", "text": "The team uses Bamboo", "title": "forum post"},
                   headers=tenant_a.headers).json()["result"]
    sus = _fact(api, tenant_a, "Team", "Bamboo")
    assert api.post(f"/v1/facts/{sus['fact_id']}/cite", json={"source_id": src["source_id"]},
                    headers=tenant_a.headers).status_code in (200, 201)
    # when the first is deprecated: it answers with the fact in its new state and a cascade report
    dep = api.post(f"/v1/facts/{old['fact_id']}/deprecate", json={"reason": "moved to Actions", "actor": "ops"},
                   headers=tenant_a.headers)
    assert dep.status_code == 200, dep.json()
    assert dep.json()["result"]["state"] == "deprecated" and "cascade" in dep.json()
    # when the source is quarantined: its fact is set aside, not deleted
    q = api.post("/v1/quarantine", json={"source_id": src["source_id"], "reason": "unverified", "actor": "security"},
                 headers=tenant_a.headers)
    assert q.status_code == 200, q.json()
    assert [(f["fact_id"], f["state"]) for f in q.json()["result"]] == [(sus["fact_id"], "quarantined")]
    assert _served(api, tenant_a, "Team") == []
    assert _served(api, tenant_a, "Team", states="quarantined") == [sus["fact_id"]]
    # then a refused transition is a 409 problem naming both states, and another tenant's source is 404
    refused = api.post("/v1/quarantine", json={"fact_id": old["fact_id"], "reason": "x", "actor": "y"},
                       headers=tenant_a.headers)
    assert refused.status_code == 409 and refused.json()["code"] == "transition_refused"
    assert "deprecated -> quarantined" in refused.text
    theirs = api.post("/v1/release", json={"source_id": src["source_id"], "reason": "x", "actor": "y"},
                      headers=tenant_b.headers)
    assert theirs.status_code == 404 and theirs.json()["code"] == "not_found"
    # when released: back to candidate
    back = api.post("/v1/release", json={"source_id": src["source_id"], "reason": "checked", "actor": "security"},
                    headers=tenant_a.headers)
    assert [f["state"] for f in back.json()["result"]] == ["candidate"]
    # and a reason is required
    empty = api.post(f"/v1/facts/{sus['fact_id']}/deprecate", json={"reason": "", "actor": "ops"},
                     headers=tenant_a.headers)
    assert empty.status_code == 422 and empty.json()["field"] == "reason"
