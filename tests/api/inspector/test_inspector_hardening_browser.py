"""The hardened inspector in headless Chromium against a real `credo serve` (issue 24 §5): a `javascript:` source uri
renders as text and no script runs, the browser receives the security headers on every page and enforces the policy,
logout and key revocation end the session, and the forget confirmation shows what its button forgets."""

from __future__ import annotations

import httpx
import pytest

from credo.services.access import api_keys
from tests.api.browser import chromium, response_headers
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_browser import rest
from tests.api.rest.test_serve import serving


class _Q:  # raw Cypher for the tests only
    def __init__(self, text: str) -> None:
        self.text = text


EVIL = "javascript:document.title='pwned';window.pwned=1"


@pytest.fixture
def served(cli_env):
    """`credo serve` with auth on, on a free loopback port."""
    with serving(dict(cli_env, CREDO_AUTH="on")) as (url, _):
        yield url


def log_in(driver, served: str, key: str, then: str = "/ui/entities") -> None:
    """Log in through the form, as a person would; the browser keeps the session cookie."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{served}{then}")
    WebDriverWait(driver, 15).until(ec.presence_of_element_located((By.ID, "api_key"))).send_keys(key)
    driver.find_element(By.ID, "login").click()
    WebDriverWait(driver, 15).until(lambda d: "/ui/login" not in d.current_url)


def add_fact(api, subject: str, obj: str) -> str:
    """A fact written through REST; its id."""
    made = api.post("/v1/facts", json={"subject": subject, "predicate": "owned_by", "object": obj,
                                       "valid_from": "2024-01-01"})
    assert made.status_code == 201, made.text
    return made.json()["result"]["fact_id"]


def test_a_javascript_uri_renders_as_text_no_script_runs_and_every_page_carries_the_headers(served, neo4j_db):
    from selenium.webdriver.common.by import By

    tenant = new_tenant(neo4j_db)
    with rest(served, tenant.key) as api, chromium(network_log=True) as driver:
        # given a fact citing a source whose uri was stored as javascript: before the rule (REST refuses it now)
        fact = add_fact(api, "Acme", "Alice")
        refused = api.post("/v1/sources", json={"kind": "document", "text": "runbook", "uri": EVIL})
        assert refused.status_code == 422 and refused.json()["field"] == "uri"
        source = api.post("/v1/sources", json={"kind": "document", "text": "runbook", "title": "Runbook",
                                               "uri": "https://example.com/runbook"}).json()["result"]["source_id"]
        assert api.post(f"/v1/facts/{fact}/cite", json={"source_id": source}).status_code == 200
        neo4j_db.query(_Q("MATCH (s:Source {source_id: $id}) SET s.uri = $uri RETURN s.source_id AS id"), write=True,
                       id=source, uri=EVIL)
        # when the curator opens the why-view and clicks the uri
        log_in(driver, served, tenant.key)
        driver.get(f"{served}/ui/facts/{fact}")
        title = driver.title
        shown = driver.find_element(By.CSS_SELECTOR, ".source .uri")
        assert shown.text == EVIL and shown.tag_name == "span"
        assert driver.execute_script("return document.querySelectorAll('a[href^=\"javascript\" i]').length") == 0
        shown.click()
        # then no script ran
        assert driver.title == title and driver.execute_script("return window.pwned === undefined")
        # and the browser enforces the policy: an inline script put into the page does not run
        ran = driver.execute_script("var s = document.createElement('script'); s.textContent = 'window.injected = 1';"
                                    "document.body.appendChild(s); return window.injected === 1;")
        assert ran is False

        # and every page the browser loads came with the security headers, and holds no inline script
        pages = ["/ui/entities", "/ui/entities/Acme", f"/ui/facts/{fact}", "/ui/queues", "/ui/context?q=Acme",
                 f"/ui/forget?target={fact}", "/ui/diff?since=2000-01-01", "/ui/policy", "/ui/timeline?entity=Acme",
                 "/ui/transition?known_before=2000-01-01&known_after=2000-01-02", "/ui/no-such-page"]
        response_headers(driver)  # drop what came before
        for path in pages:
            driver.get(served + path)
            assert driver.execute_script("return document.querySelectorAll('script:not([src])').length") == 0, path
        got = response_headers(driver)
        for path in pages:
            headers = got[served + path.replace(" ", "%20")]
            assert "script-src 'self'" in headers["content-security-policy"], path
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
            assert (headers["x-frame-options"], headers["x-content-type-options"]) == ("DENY", "nosniff"), path
            assert headers["referrer-policy"] == "same-origin" and headers["cache-control"] == "no-store", path
        # and search as you type still works, from its static file
        driver.get(f"{served}/ui/entities")
        driver.find_element(By.ID, "q").send_keys("acme")
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(driver, 15).until(lambda d: "q=acme" in d.current_url)


def test_logout_and_key_revocation_end_the_session_in_the_browser(served, neo4j_db):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from selenium.common.exceptions import StaleElementReferenceException

    tenant = new_tenant(neo4j_db)
    with chromium() as driver:
        # a page read while the browser is replacing it raises a stale element: the wait reads again
        wait = WebDriverWait(driver, 15, ignored_exceptions=(StaleElementReferenceException,))
        # given a person logged in
        log_in(driver, served, tenant.key)
        copied = driver.get_cookie("credo_session")["value"]
        assert tenant.key not in copied
        with httpx.Client(base_url=served, cookies={"credo_session": copied}) as thief:
            assert thief.get("/ui/entities.json").status_code == 200
            # when they log out, then the browser is on the login page and pages send it back there
            driver.find_element(By.ID, "logout").click()
            wait.until(lambda d: "/ui/login" in d.current_url)
            assert driver.get_cookie("credo_session") is None
            driver.get(f"{served}/ui/queues")
            wait.until(lambda d: "/ui/login?next=%2Fui%2Fqueues" in d.current_url)
            # and the copied cookie opens nothing any more
            assert thief.get("/ui/entities.json").status_code == 401

        # given the person logged in again
        log_in(driver, served, tenant.key, then="/ui/queues")
        assert "/ui/queues" in driver.current_url
        # when the key is revoked, then the next page goes to the login form, where the key no longer works
        api_keys.revoke_key(neo4j_db, key_id=tenant.key_id)
        driver.get(f"{served}/ui/entities")
        wait.until(lambda d: "/ui/login" in d.current_url)
        driver.find_element(By.ID, "api_key").send_keys(tenant.key)
        driver.find_element(By.ID, "login").click()
        wait.until(lambda d: "unknown or revoked" in d.find_element(By.TAG_NAME, "main").text)


def test_the_forget_confirmation_shows_what_its_button_forgets_in_the_browser(served, neo4j_db):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    tenant = new_tenant(neo4j_db)
    with rest(served, tenant.key) as api, chromium() as driver:
        wait = WebDriverWait(driver, 15)
        # given two entities, each with a fact
        add_fact(api, "Acme", "Alice")
        add_fact(api, "Globex", "Hank")
        log_in(driver, served, tenant.key)
        driver.get(f"{served}/ui/entities/Acme")
        driver.find_element(By.CLASS_NAME, "forget-link").click()
        wait.until(ec.presence_of_element_located((By.ID, "reach")))
        acme_id = driver.find_element(By.ID, "forget-target").text
        # when the confirmation's URL also names another entity (as the old page read it)
        driver.get(f"{served}/ui/forget?target={acme_id}&entity=Globex")
        # then it shows the entity its button forgets, and only that
        assert driver.find_element(By.ID, "forget-title").text == "Acme"
        assert "Acme owned_by Alice" in driver.find_element(By.ID, "reach").text
        assert "Globex" not in driver.find_element(By.TAG_NAME, "main").text
        button = driver.find_element(By.ID, "confirm-forget")
        assert button.text == "Forget entity for good"
        # when the curator confirms, then Acme is forgotten (its residue report completes) and Globex is untouched
        button.click()
        status = wait.until(ec.presence_of_element_located((By.ID, "residue-status")))
        wait.until(lambda d: d.find_element(By.ID, "residue-status").text.startswith("Complete"))
        assert acme_id in driver.current_url and status is not None
        served_now = {f["subject"] for f in api.get("/v1/facts").json()["items"]}
        assert served_now == {"Globex"}
