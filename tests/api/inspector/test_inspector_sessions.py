"""The inspector's logins are server-side sessions (issue 24 §5): the cookie holds an opaque id, never the key; a
copied cookie authenticates no REST call; sessions expire (absolute and idle), end at logout and when their key is
revoked, are shared by every process on the same Neo4j, and the login form refuses a cross-site post."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from credo.api.inspector.session import COOKIE
from credo.api.rest import create_app
from credo.services.access import api_keys
from credo.settings import Settings
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_pages import csrf_of, login
from tests.api.test_scopes import footprint
from tests.api.rest.test_serve import two_servers  # noqa: F401 - the fixture: two `credo serve` processes


class _Q:  # raw Cypher for the tests only
    def __init__(self, text: str) -> None:
        self.text = text


SESSIONS = _Q("MATCH (s:UiSession {tenant: $tenant}) RETURN s {.*} AS s")


@contextmanager
def inspector(neo4j_db, **settings) -> Iterator[TestClient]:
    """One app (one process's runtime) on the session's Neo4j, with these settings."""
    with TestClient(create_app(Settings(**settings), db=neo4j_db, embedder=None)) as client:
        yield client


def session_cookie(client: TestClient) -> str:
    """The session id the browser holds."""
    return client.cookies[COOKIE]


def logged_in(client: TestClient) -> bool:
    """Whether a page opens (rather than sending the browser to the login form)."""
    answer = client.get("/ui/entities", follow_redirects=False)
    assert answer.status_code in (200, 303), answer.text
    if answer.status_code == 303:
        assert answer.headers["location"].startswith("/ui/login?next=")
    return answer.status_code == 200


def test_the_session_cookie_holds_an_opaque_id_and_the_graph_only_its_hash(api, neo4j_db, tenant_a):
    # when a person logs in
    made = login(api, tenant_a)
    cookie = made.headers["set-cookie"]
    sid = session_cookie(api)
    # then the cookie is an opaque random id: not the key, not its id, not its secret
    secret = tenant_a.key.split("_", 2)[2]
    assert tenant_a.key not in cookie and tenant_a.key_id not in cookie and secret not in cookie
    assert len(sid) >= 40 and re.fullmatch(r"[A-Za-z0-9_-]+", sid)
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower() and "path=/ui" in cookie.lower()
    assert "max-age=28800" in cookie.lower()  # the absolute lifetime (8 h by default)
    # and the graph holds its sha256, never the id itself
    [row] = neo4j_db.query(SESSIONS, tenant=tenant_a.name)
    stored = row["s"]
    assert stored["id_hash"] == hashlib.sha256(sid.encode()).hexdigest()
    assert stored["key_id"] == tenant_a.key_id and sid not in {str(v) for v in stored.values()}
    assert {"created_at", "last_seen", "expires_at"} <= set(stored)


def test_a_copied_session_cookie_authenticates_no_rest_call(api, neo4j_db, tenant_a):
    login(api, tenant_a)
    sid = session_cookie(api)
    assert logged_in(api)
    before = footprint(neo4j_db, tenant_a.name)
    # when the cookie is copied onto REST calls (as a cookie, as a key, as a bearer token)
    for headers in ({"Cookie": f"{COOKIE}={sid}"}, {"X-API-Key": sid}, {"Authorization": f"Bearer {sid}"}):
        forget = api.post("/v1/tenant/forget", json={"reason": "stolen cookie", "actor": "mallory"}, headers=headers)
        read = api.get("/v1/facts", headers=headers)
        # then REST takes only the key headers: 401, and nothing is written
        assert (forget.status_code, read.status_code) == (401, 401), headers
    assert footprint(neo4j_db, tenant_a.name) == before


def test_a_session_ends_at_its_absolute_lifetime_however_busy(neo4j_db):
    # (the exact rule, on explicit clocks: tests/services/access/test_ui_sessions.py; here, the server and the browser)
    tenant = new_tenant(neo4j_db)
    with inspector(neo4j_db, ui_session_ttl_s=3.0, ui_session_idle_s=60.0) as client:
        made = login(client, tenant)
        started = time.monotonic()  # the session's end was set before the login answered
        assert "max-age=3;" in made.headers["set-cookie"].lower()  # the browser is told the lifetime too
        sid = session_cookie(client)
        while time.monotonic() - started < 1.5:  # busy all along
            assert logged_in(client)
            time.sleep(0.3)
        time.sleep(max(0.0, 3.2 - (time.monotonic() - started)))
        # a browser may still send the cookie: the server refuses it and drops it
        client.cookies.set(COOKIE, sid, path="/ui")
        assert not logged_in(client)
        client.cookies.set(COOKIE, sid, path="/ui")
        assert client.get("/ui/entities.json").status_code == 401


def test_a_session_ends_after_the_idle_time_and_each_page_restarts_it(neo4j_db):
    tenant = new_tenant(neo4j_db)
    with inspector(neo4j_db, ui_session_ttl_s=60.0, ui_session_idle_s=2.0) as client:
        login(client, tenant)
        for _ in range(6):  # opened every 0.5 s for 3 s: longer than the idle time, never idle that long
            time.sleep(0.5)
            assert logged_in(client)
        sid = session_cookie(client)
        time.sleep(2.5)  # then left alone longer than the idle time
        client.cookies.set(COOKIE, sid, path="/ui")
        assert not logged_in(client)


def test_logout_ends_the_session_on_the_server_and_the_old_cookie_then_fails(api, tenant_a):
    login(api, tenant_a)
    sid = session_cookie(api)
    page = api.get("/ui/entities")
    assert 'action="/ui/logout"' in page.text
    # when the person logs out (the form carries the session's token)
    out = api.post("/ui/logout", data={"csrf": csrf_of(page.text.split('action="/ui/logout"')[1])},
                   follow_redirects=False)
    assert out.status_code == 303 and out.headers["location"].startswith("/ui/login")
    assert COOKIE not in api.cookies
    # then the copied cookie no longer opens anything: pages go to the login form, JSON twins answer 401
    api.cookies.set(COOKIE, sid, path="/ui")
    assert not logged_in(api)
    api.cookies.set(COOKIE, sid, path="/ui")
    assert api.get("/ui/queues.json").status_code == 401


def test_logout_without_the_session_token_is_refused(api, tenant_a):
    login(api, tenant_a)
    refused = api.post("/ui/logout", data={"csrf": "forged"}, follow_redirects=False)
    assert refused.status_code == 403
    assert logged_in(api)


def test_revoking_the_key_ends_its_sessions_and_their_cookies_then_fail(api, neo4j_db, tenant_a):
    login(api, tenant_a)
    sid = session_cookie(api)
    assert logged_in(api)
    # when the key is revoked
    api_keys.revoke_key(neo4j_db, key_id=tenant_a.key_id)
    # then its session is marked ended, and the cookie opens nothing
    [row] = neo4j_db.query(SESSIONS, tenant=tenant_a.name)
    assert row["s"]["revoked_at"] is not None
    api.cookies.set(COOKIE, sid, path="/ui")
    assert not logged_in(api)
    api.cookies.set(COOKIE, sid, path="/ui")
    assert api.get("/ui/facts/f_any.json").status_code == 401


def test_a_revoked_key_ends_the_session_even_if_its_session_was_not_marked(api, neo4j_db, tenant_a):
    # every page request reads the key beside the session: a key revoked by any means ends it at once
    login(api, tenant_a)
    neo4j_db.query(_Q("MATCH (k:ApiKey {key_id: $key_id}) SET k.revoked_at = datetime() RETURN k.key_id AS id"),
                   write=True, key_id=tenant_a.key_id)
    assert not logged_in(api)


def test_sessions_are_shared_by_every_process_on_the_same_neo4j(neo4j_db):
    # given two processes (two runtimes) behind a load balancer, on the same Neo4j
    tenant = new_tenant(neo4j_db)
    with inspector(neo4j_db) as a, inspector(neo4j_db) as b:
        # when the person logs in through A
        login(a, tenant)
        sid = session_cookie(a)
        # then B knows the session
        b.cookies.set(COOKIE, sid, path="/ui")
        assert logged_in(b)
        # and a logout through B ends it for A too
        page = b.get("/ui/entities").text
        b.post("/ui/logout", data={"csrf": csrf_of(page.split('action="/ui/logout"')[1])}, follow_redirects=False)
        assert not logged_in(a)


@pytest.mark.parametrize(("headers", "token"), [
    ({}, None),  # no token
    ({}, "forged"),  # a token of another form
    ({"Origin": "https://evil.example"}, "right"),  # the right token, posted from another site
    ({"Origin": "null"}, "right"),  # a sandboxed or opaque origin
    ({"Origin": "http://testserver.evil.example"}, "right"),
    ({"Sec-Fetch-Site": "cross-site"}, "right"),
    ({"Sec-Fetch-Site": "same-site"}, "right"),  # a sibling subdomain is another site to us
], ids=["no-token", "wrong-token", "foreign-origin", "null-origin", "lookalike-origin", "cross-site", "same-site"])
def test_login_refuses_a_cross_site_post(api, neo4j_db, tenant_a, headers, token):
    form = api.get("/ui/login").text
    data = {"api_key": tenant_a.key} | ({"csrf": csrf_of(form) if token == "right" else token} if token else {})
    refused = api.post("/ui/login", data=data, headers=headers, follow_redirects=False)
    assert refused.status_code == 403 and "csrf_refused" in refused.text
    assert COOKIE not in refused.headers.get("set-cookie", "")
    assert neo4j_db.query(SESSIONS, tenant=tenant_a.name) == []


def test_login_from_this_site_is_accepted(api, tenant_a):
    form = api.get("/ui/login").text
    done = api.post("/ui/login", data={"api_key": tenant_a.key, "csrf": csrf_of(form)},
                    headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}, follow_redirects=False)
    assert done.status_code == 303 and COOKIE in done.headers["set-cookie"]


def test_a_form_that_writes_refuses_a_foreign_origin_even_with_the_token(api, tenant_a):
    login(api, tenant_a)
    page = api.get("/ui/entities").text
    token = csrf_of(page.split('action="/ui/logout"')[1])
    refused = api.post("/ui/facts/f_x/reject", data={"reason": "r", "csrf": token},
                       headers={"Origin": "https://evil.example"}, follow_redirects=False)
    assert refused.status_code == 403 and "csrf_refused" in refused.text


def test_the_session_cookie_is_secure_when_served_over_https(neo4j_db):
    tenant = new_tenant(neo4j_db)
    app = create_app(Settings(), db=neo4j_db, embedder=None)
    with TestClient(app, base_url="https://testserver") as client:
        made = login(client, tenant)
        assert "secure" in made.headers["set-cookie"].lower()
    with TestClient(app, base_url="http://testserver") as client:
        assert "secure" not in login(client, tenant).headers["set-cookie"].lower()


def test_a_login_on_one_credo_serve_holds_on_another_until_logout_there(two_servers, neo4j_db):
    import httpx

    # given two `credo serve` processes behind a load balancer, on the same Neo4j
    a, b = two_servers
    tenant = new_tenant(neo4j_db)
    with httpx.Client(base_url=a) as on_a, httpx.Client(base_url=b) as on_b:
        # when the person logs in through A
        form = on_a.get("/ui/login").text
        assert on_a.post("/ui/login", data={"api_key": tenant.key, "csrf": csrf_of(form)}).status_code == 303
        sid = on_a.cookies[COOKIE]
        # then B serves the same session; a logout through B ends it on A too
        on_b.cookies.set(COOKIE, sid)
        page = on_b.get("/ui/entities")
        assert page.status_code == 200 and f"<code>{tenant.name}</code>" in page.text
        on_b.post("/ui/logout", data={"csrf": csrf_of(page.text.split('action="/ui/logout"')[1])})
        assert on_a.get("/ui/entities.json").status_code == 401
