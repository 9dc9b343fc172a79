"""Every answer carries the security headers (issue 24 §5), found by walking the app's routes so a new page or route is
covered without a new test; no URL steers a redirect or a page's words: `next` and `back` go only to /ui paths, a
flash is one of a fixed set, a trailing-slash redirect never reflects the Host header; an unknown /ui page is HTML."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Mount, Route

from credo.api.cli.serve import mcp_mounts
from credo.api.inspector.render import FLASH
from credo.api.rest import create_app
from credo.settings import Settings
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_pages import csrf_of, login

REQUIRED = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "same-origin"}


def flat(routes) -> Iterator[object]:
    """Every route of the app, included routers walked into (this FastAPI keeps them whole)."""
    for r in routes:
        nested = getattr(r, "original_router", None)
        yield from (flat(nested.routes) if nested is not None else [r])


def concrete(path: str) -> str:
    """A request path for a route's path: every parameter an id that does not exist."""
    return re.sub(r"\{[^}]+\}", "x_missing", path)


def assert_hardened(answer, where: str) -> None:
    """The headers every answer must carry."""
    headers = answer.headers
    for name, value in REQUIRED.items():
        assert headers.get(name) == value, (where, name, dict(headers))
    csp = headers.get("content-security-policy", "")
    script = next((d for d in csp.split(";") if d.strip().startswith("script-src")), "")
    assert "frame-ancestors 'none'" in csp and script and "'unsafe-inline'" not in script, (where, csp)
    static = answer.request.url.path.startswith("/ui/static/")
    assert headers.get("cache-control") == ("no-cache" if static else "no-store"), (where, headers.get("cache-control"))


@pytest.fixture
def served(neo4j_db) -> Iterator[tuple[TestClient, object]]:
    """The app as `credo serve` builds it (REST, MCP over HTTP, the inspector), logged in with an operator key."""
    app = create_app(Settings(), db=neo4j_db, embedder=None, mounts=mcp_mounts())
    tenant = new_tenant(neo4j_db)
    with TestClient(app, raise_server_exceptions=False) as client:
        login(client, tenant)
        yield client, tenant


def test_every_route_answers_with_the_security_headers(served):
    client, tenant = served
    app = client.app
    seen: list[str] = []
    for route in flat(app.routes):
        if isinstance(route, Mount):  # the inspector's static files
            targets = [("GET", route.path + "/inspector.css"), ("GET", route.path + "/search.js"),
                       ("GET", route.path + "/missing.js")]
        elif isinstance(route, (APIRoute, Route)):
            targets = [(m, concrete(route.path)) for m in sorted(route.methods or {"GET"}) if m != "HEAD"]
        else:
            continue
        for method, path in targets:
            rest = path.startswith("/v1") or path.startswith("/mcp")
            answer = client.request(method, path, headers=tenant.headers if rest else {},
                                    json={} if method == "POST" and rest else None,
                                    data={} if method == "POST" and not rest else None, follow_redirects=False)
            assert answer.status_code != 500, (method, path, answer.text[:300])  # 503 not_configured is fine
            assert_hardened(answer, f"{method} {path} -> {answer.status_code}")
            seen.append(f"{method} {route.path}")
    assert any(s.startswith("GET /ui/") for s in seen) and any(s.startswith("POST /v1/") for s in seen)
    assert any(s.endswith("/mcp") for s in seen) and "GET /health" in seen and "GET /docs" in seen


@pytest.mark.parametrize(("method", "path", "keyed", "status"), [
    ("GET", "/v1/facts", False, 401),  # no key
    ("GET", "/v1/nothing-here", True, 404),
    ("DELETE", "/v1/facts", True, 405),
    ("GET", "/v1/facts/", True, 307),  # the trailing-slash redirect
    ("GET", "/ui/entities.json", False, 401),
    ("GET", "/ui/no-such-page", False, 404),
    ("GET", "/ui/logout", False, 405),
    ("POST", "/mcp", False, 401),
])
def test_refusals_and_redirects_carry_the_security_headers_too(served, method, path, keyed, status):
    client, tenant = served
    client.cookies.clear()
    answer = client.request(method, path, headers=tenant.headers if keyed else {}, follow_redirects=False)
    assert answer.status_code == status
    assert_hardened(answer, f"{method} {path}")


def test_an_unexpected_failure_answers_a_problem_with_the_security_headers(neo4j_db):
    app = create_app(Settings(), db=neo4j_db, embedder=None)

    @app.get("/v1/boom", include_in_schema=False)
    def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/v1/boom")
    assert answer.status_code == 500 and answer.json()["code"] == "internal"
    assert_hardened(answer, "500")


def test_the_api_docs_allow_only_their_own_inline_script_by_its_hash(api):
    page = api.get("/docs")
    csp = page.headers["content-security-policy"]
    script = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert page.status_code == 200 and "'sha256-" in script and "'unsafe-inline'" not in script
    assert page.headers["x-frame-options"] == "DENY"


def test_no_inspector_template_holds_inline_script_or_style():
    from pathlib import Path

    from credo.api import inspector as pages

    folder = Path(pages.__file__).with_name("templates")
    for template in folder.glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), template.name
        assert "<style" not in text and "style=" not in text, template.name
        assert not re.search(r"\son[a-z]+=", text), template.name  # no event-handler attributes either


@pytest.mark.parametrize(("next_", "lands"), [
    ("/ui/queues", "/ui/queues"),
    ("/ui/entities/Acme?valid_at=2024-01-01", "/ui/entities/Acme?valid_at=2024-01-01"),
    ("https://evil.example/ui/", "/ui/entities"),
    ("//evil.example/ui/", "/ui/entities"),
    ("/\\evil.example", "/ui/entities"),
    ("/ui/\\evil.example", "/ui/entities"),
    ("/v1/tenant/forget", "/ui/entities"),  # not an inspector path
    ("/uix", "/ui/entities"),
    ("javascript:alert(1)", "/ui/entities"),
    ("/ui/queues\r\nSet-Cookie: x=y", "/ui/entities"),
    ("/ui/../v1/audit", "/ui/entities"),  # a dot segment would leave /ui once the browser resolves it
    ("/ui/./../v1/audit", "/ui/entities"),
    ("/ui/%2e%2e/v1/audit", "/ui/entities"),
    ("/ui/%2E%2e/%2e%2E/v1/audit", "/ui/entities"),
    ("/ui/entities/..", "/ui/entities"),
])
def test_login_goes_on_only_to_inspector_paths(api, tenant_a, next_, lands):
    form = api.get("/ui/login", params={"next": next_}).text
    assert f'name="next" value="{lands}"' in form
    done = api.post("/ui/login", data={"api_key": tenant_a.key, "csrf": csrf_of(form), "next": next_},
                    follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == lands


@pytest.mark.parametrize("back", ["https://evil.example/", "//evil.example", "/v1/facts", "/\\evil.example",
                                  "/ui/../v1/audit", "/ui/%2e%2e/v1/audit"])
def test_a_form_goes_back_only_to_an_inspector_path(api, tenant_a, back):
    # given a rule gone stale (its premise retracted): a re-verification awaits
    premise = api.post("/v1/facts", json={"subject": "Acme", "predicate": "plan", "object": "gold",
                                          "valid_from": "2024-01-01", "object_is_entity": False},
                       headers=tenant_a.headers).json()["result"]["fact_id"]
    rule = api.post("/v1/facts", json={"subject": "Acme", "predicate": "discount", "object": "10%",
                                       "valid_from": "2024-01-01", "object_is_entity": False, "depends_on": [premise]},
                    headers=tenant_a.headers)
    fact_id = rule.json()["result"]["fact_id"]
    assert api.post(f"/v1/facts/{premise}/retract", json={"reason": "wrong plan"},
                    headers=tenant_a.headers).status_code == 200
    login(api, tenant_a)
    token = csrf_of(api.get("/ui/queues").text.split('action="/ui/logout"')[1])
    done = api.post(f"/ui/facts/{fact_id}/reverify",
                    data={"outcome": "holds", "note": "checked", "csrf": token, "back": back}, follow_redirects=False)
    assert done.status_code == 303, re.sub(r"\s+", " ", done.text)[-500:]
    assert done.headers["location"] == "/ui/queues?flash=reverified"


def test_the_page_after_a_login_redirect_comes_back_with_its_query(api, tenant_a):
    away = api.get("/ui/context", params={"q": "Acme"}, follow_redirects=False)
    assert away.status_code == 303 and away.headers["location"] == "/ui/login?next=%2Fui%2Fcontext%3Fq%3DAcme"


@pytest.mark.parametrize("flash", ["<script>alert(1)</script>", "Your account is locked: call +1 555 0100",
                                   "resolved ", "RESOLVED"])
def test_a_flash_cannot_carry_text_of_its_own(api, tenant_a, flash):
    login(api, tenant_a)
    page = api.get("/ui/entities", params={"flash": flash}).text
    assert 'class="flash"' not in page and "call +1" not in page and "&lt;script&gt;" not in page


def test_a_flash_code_shows_its_fixed_message(api, tenant_a):
    login(api, tenant_a)
    page = api.get("/ui/entities", params={"flash": "resolved"}).text
    assert f'<p class="flash" role="status">{FLASH["resolved"]}</p>' in page


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "127.0.0.1:1", "[::1]:9"])
@pytest.mark.parametrize(("path", "lands"), [
    ("/ui/entities/", "/ui/entities"), ("/ui/queues/?flash=resolved", "/ui/queues?flash=resolved"),
    ("/v1/facts/", "/v1/facts"), ("/health/", "/health"), ("/ui/entities/Acme%20Corp/", "/ui/entities/Acme%20Corp"),
])
def test_a_trailing_slash_redirect_is_relative_whatever_the_host(api, host, path, lands):
    answer = api.get(path, headers={"Host": host}, follow_redirects=False)
    assert answer.status_code == 307 and answer.headers["location"] == lands


def test_a_path_of_slashes_never_redirects_to_another_host(api):
    for path in ("//evil.example/", "///evil.example//", "//evil.example/health/"):
        answer = api.get(path, follow_redirects=False)
        assert not answer.headers.get("location", "").startswith("//"), path


@pytest.mark.parametrize("path", ["/ui/no-such-page", "/ui/facts/f_x/nothing", "/ui/forget/a/b/c"])
def test_an_unknown_inspector_page_answers_an_html_404_page(api, tenant_a, path):
    login(api, tenant_a)
    answer = api.get(path)
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    assert "<h1>" in answer.text and 'href="/ui/entities"' in answer.text


def test_an_unknown_json_twin_and_an_unknown_rest_path_answer_a_problem_document(api, tenant_a):
    for path in ("/ui/no-such-page.json", "/v1/no-such-thing"):
        answer = api.get(path, headers=tenant_a.headers)
        assert answer.status_code == 404 and answer.headers["content-type"] == "application/problem+json"
