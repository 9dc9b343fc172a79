"""The memory inspector's pages at the HTML/JSON level: login, tenant isolation, CSRF, timeline, why, queues."""

from __future__ import annotations

import html
import re

import pytest

from credo.store import Store
from tests.api.conftest import semantic_logged_for


@pytest.fixture
def a_store(neo4j_db, tenant_a):
    """Tenant A's store (no embeddings)."""
    return Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False)


def login(api, tenant):
    """Log in through the form (its token comes back with the form); the client keeps the session cookie. Returns
    the login response."""
    form = api.get("/ui/login")
    assert form.status_code == 200
    return api.post("/ui/login", data={"api_key": tenant.key, "csrf": csrf_of(form.text)}, follow_redirects=False)


def csrf_of(html: str) -> str:
    """The CSRF token of the first form that writes."""
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def test_versions_about_an_entity_list_every_version_in_every_state_and_known_time(store, clock):
    # given a fact succeeded once and a conflicting challenger
    clock.at("2025-01-01")
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    clock.at("2025-02-01")
    store.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01")
    store.add_fact("Acme", "owned_by", "Carol", valid_from="2024-03-01")
    # when the entity's versions are read
    found = store.entity_versions("Acme")
    # then the first belief (closed in known time), its successors and the challenger are all there
    assert {f.object_name for f in found} == {"Alice", "Bob", "Carol"}
    assert any(f.known_to is not None for f in found)
    assert "conflicted" in {f.state for f in found}


def test_pages_ask_for_a_login_and_the_cookie_is_httponly_and_samesite(api, tenant_a):
    # given no cookie, a page redirects to the login form and its JSON twin answers 401
    assert api.get("/ui/entities", follow_redirects=False).status_code == 303
    assert api.get("/ui/entities.json").status_code == 401
    # when the person logs in with a wrong key, then the form says so and sets no cookie
    form = api.get("/ui/login")
    wrong = api.post("/ui/login", data={"api_key": "credo_nope", "csrf": csrf_of(form.text)}, follow_redirects=False)
    assert wrong.status_code == 401 and "set-cookie" not in wrong.headers
    # when with the right key, then the cookie is HttpOnly and SameSite, and pages answer
    made = login(api, tenant_a)
    assert made.status_code == 303
    cookie = made.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert api.get("/ui/entities").status_code == 200


def test_another_tenants_key_on_a_fact_url_answers_404(api, neo4j_db, tenant_a, tenant_b, a_store):
    # given tenant A's fact
    fact = a_store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    # when tenant B logs in and opens A's why-view and A's entity timeline
    login(api, tenant_b)
    # then both answer 404, HTML and JSON alike, and nothing of A's shows
    for path in (f"/ui/facts/{fact.fact_id}", f"/ui/facts/{fact.fact_id}.json", "/ui/entities/Acme",
                 "/ui/entities/Acme.json"):
        answer = api.get(path)
        assert answer.status_code == 404, path
        assert "Alice" not in answer.text
    assert api.get(f"/ui/facts/{fact.fact_id}.json", headers=tenant_a.headers).status_code == 200


def test_entities_page_filters_names_and_statements_as_you_type(api, tenant_a, a_store):
    a_store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    a_store.add_fact("Globex", "owned_by", "Hank", valid_from="2024-01-01", statement="Hank runs Globex")
    login(api, tenant_a)
    every = api.get("/ui/entities.json").json()
    assert {e["name"] for e in every["items"]} == {"Acme", "Globex"}
    hank = api.get("/ui/entities.json", params={"q": "hank runs"}).json()
    assert [e["name"] for e in hank["items"]] == ["Globex"]
    html = api.get("/ui/entities", params={"q": "acme"}).text
    assert 'href="/ui/entities/Acme"' in html and "Globex" not in html
    assert re.search(r'<label for="q"', html)


def test_timeline_draws_a_rectangle_per_version_and_labels_the_conflict(api, tenant_a, a_store):
    alice = a_store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    a_store.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01")
    a_store.add_fact("Acme", "owned_by", "Carol", valid_from="2024-03-01")
    login(api, tenant_a)
    view = api.get("/ui/entities/Acme.json").json()
    versions = a_store.entity_versions("Acme")
    assert len(view["rectangles"]) == len(versions)
    labels = {r["label"] for r in view["rectangles"]}
    assert {"succession", "conflict"} <= labels
    html = api.get("/ui/entities/Acme", params={"valid_at": "2024-07-01"}).text
    assert html.count('class="version') == len(versions)
    assert "<title>" in html and "Bob" in html.split('id="as-of"')[1]


def test_resolve_without_the_csrf_token_is_refused_and_writes_nothing(api, tenant_a, a_store):
    a_store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    a_store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
    [conflict] = a_store.conflicts()
    login(api, tenant_a)
    refused = api.post(f"/ui/conflicts/{conflict.conflict_id}/resolve",
                       data={"decision": "succession", "reason": "moved", "csrf": "forged"}, follow_redirects=False)
    assert refused.status_code == 403
    assert [c.conflict_id for c in a_store.conflicts()] == [conflict.conflict_id]
    page = api.get("/ui/queues").text
    done = api.post(f"/ui/conflicts/{conflict.conflict_id}/resolve",
                    data={"decision": "succession", "at": "2024-08-01", "reason": "moved", "csrf": csrf_of(page)},
                    follow_redirects=False)
    assert done.status_code == 303
    assert a_store.conflicts() == []
    assert [f.object_name for f in a_store.facts("Acme", "owned_by", valid_at="2024-09-01")] == ["Bob"]


def test_why_view_shows_the_quote_its_message_and_session_and_the_premises(api, tenant_a, a_store, neo4j_db):
    semantic_logged_for(neo4j_db, tenant_a.name)  # the gate and reads, not consent: remember serves at once
    a_store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "maria",
                                    "text": "Alice owns the Acme account now.", "at": "2024-01-05T09:00:00Z"}])
    fact = a_store.turn("s1").remember("Alice owns the Acme account", "Alice owns the Acme account",
                                       subject="Acme account", predicate="owned_by", object="Alice",
                                       valid_from="2024-01-05")
    rule = a_store.add_fact("Acme account", "billing_rule", "monthly", valid_from="2024-01-05", depends_on=[fact.fact_id])
    a_store.add_summary("Acme's owner", derived_from=[fact.fact_id])
    login(api, tenant_a)
    view = api.get(f"/ui/facts/{fact.fact_id}.json").json()
    assert view["why"]["sources"][0]["session_id"] == "s1"
    assert [s["topic"] for s in view["summaries"]] == ["Acme's owner"]
    html = api.get(f"/ui/facts/{fact.fact_id}").text
    assert "Alice owns the Acme account" in html and "maria" in html and "s1" in html
    rule_html = api.get(f"/ui/facts/{rule.fact_id}").text
    assert fact.fact_id in rule_html and "active" in rule_html


def test_stale_queue_names_the_cause_and_reverify_closes_it(api, tenant_a, a_store):
    premise = a_store.add_fact("Acme", "plan", "gold", valid_from="2024-01-01")
    rule = a_store.add_fact("Acme", "discount", "10%", valid_from="2024-01-01", depends_on=[premise.fact_id],
                            object_is_entity=False)
    a_store.retract_fact(premise.fact_id, reason="wrong plan")
    login(api, tenant_a)
    queues = api.get("/ui/queues.json").json()
    [item] = queues["stale"]
    assert item["id"] == rule.fact_id and item["cause"]
    page = api.get("/ui/queues").text
    assert item["cause"] in html.unescape(page)
    done = api.post(f"/ui/facts/{rule.fact_id}/reverify", data={"outcome": "holds", "note": "checked with finance", "csrf": csrf_of(page)},
                    follow_redirects=False)
    assert done.status_code == 303
    assert a_store.stale() == []


def test_context_page_shows_current_historical_and_the_prompt_rendering(api, tenant_a, a_store):
    alice = a_store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    a_store.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01")
    login(api, tenant_a)
    package = api.get("/ui/context.json", params={"query": "Acme"}).json()
    assert [i["fact"]["object_name"] for i in package["current"]] == ["Bob"]
    assert "Alice" in {i["fact"]["object_name"] for i in package["historical"]}
    page = html.unescape(api.get("/ui/context", params={"query": "Acme"}).text)
    assert package["markdown"].strip() and package["markdown"].strip().splitlines()[0] in page
    assert 'class="ctx-historical"' in page


def test_why_view_lists_the_ledger_events_that_name_the_fact(api, neo4j_db, tenant_a, a_store):
    from credo.services.access import api_keys

    fact = a_store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    a_store.correct_fact(fact.fact_id, statement="Alice owns Acme")
    # the audit ledger is read with clearance all: a key cleared for all sees its events
    cleared = api_keys.create_key(neo4j_db, tenant=tenant_a.name, clearance="all", scopes=["operator"])
    login(api, type(tenant_a)(name=tenant_a.name, key=cleared.secret, key_id=cleared.key.key_id))
    view = api.get(f"/ui/facts/{fact.fact_id}.json").json()
    assert len(view["ledger"]) >= 2
    assert api.get(f"/ui/facts/{fact.fact_id}").text.count('class="ledger-event"') == len(view["ledger"])
    # while the tenant's key of the default clearance is told what the page leaves out
    api.cookies.clear()
    login(api, tenant_a)
    view = api.get(f"/ui/facts/{fact.fact_id}.json").json()
    assert view["ledger"] == [] and any("clearance 'all'" in m for m in view["missing"])


def test_forget_confirms_what_it_reaches_then_the_residue_report_is_complete(api, tenant_a, a_store):
    fact = a_store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    a_store.add_summary("Acme's owner", derived_from=[fact.fact_id])
    login(api, tenant_a)
    confirm = api.get("/ui/forget", params={"target": fact.fact_id})
    assert "Acme&#39;s owner" in confirm.text or "Acme's owner" in html.unescape(confirm.text)
    assert a_store.history(fact.fact_id)[0].state != "forgotten"  # the confirmation wrote nothing
    done = api.post("/ui/forget", data={"target": fact.fact_id, "reason": "asked", "csrf": csrf_of(confirm.text)},
                    follow_redirects=False)
    assert done.status_code == 303
    report = api.get(f"/ui/forget/{fact.fact_id}.json").json()
    assert report["complete"] is True
    assert "Complete" in api.get(f"/ui/forget/{fact.fact_id}").text
    assert "Alice" not in {f.object_name for f in a_store.facts("Acme")}


def test_every_page_has_a_json_twin_with_a_response_model():
    # given the app's inspector routes: every page a person reads (the login form aside)
    from fastapi.responses import HTMLResponse
    from fastapi.routing import APIRoute

    from credo.api.rest import create_app
    from credo.settings import Settings

    def flat(routes):
        for r in routes:  # included routers are kept whole by this FastAPI: walk into them
            nested = getattr(r, "original_router", None)
            yield from (flat(nested.routes) if nested is not None else [r])

    routes = [r for r in flat(create_app(Settings()).routes) if isinstance(r, APIRoute) and r.path.startswith("/ui")]
    pages = [r.path for r in routes if "GET" in r.methods and r.response_class is HTMLResponse and r.path != "/ui/login"]
    twins = {r.path: r.response_model for r in routes if "GET" in r.methods and r.path.endswith(".json")}
    # then each has a JSON twin at the same path + .json, declared with a response model
    assert pages, "no inspector pages found"
    assert {p: twins.get(p + ".json") is not None for p in pages} == {p: True for p in pages}
