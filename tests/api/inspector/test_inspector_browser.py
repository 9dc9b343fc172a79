"""Acceptance of the memory inspector (issue 13) in headless Chromium against a real `credo serve` on 127.0.0.1.

Through REST: a fact, a conflicting fact, a premise with a dependent rule. In the browser: log in, find the entity
as you type, see the timeline's rectangles, resolve the conflict with one click (the served value changes), see
the rule in the stale queue with its cause after the premise ends, re-verify it with one click. Screenshots of
every page go under the pytest basetemp; CREDO_DOCS_SCREENSHOTS=1 also writes docs/timeline.png and docs/why.png.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from tests.api.browser import chromium
from tests.api.conftest import new_tenant
from tests.api.rest.test_serve import serving

DOCS = Path(__file__).resolve().parents[3] / "docs"


@pytest.fixture
def served(cli_env):
    """`credo serve` with auth on, on a free loopback port."""
    with serving(dict(cli_env, CREDO_AUTH="on")) as (url, _):
        yield url


@pytest.fixture
def shots(tmp_path_factory):
    """Save a screenshot of the page under the basetemp (and, when asked, into docs/)."""
    folder = tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(exist_ok=True)

    def shot(driver, name: str, *, docs: bool = False) -> Path:
        path = folder / f"{name}.png"
        driver.save_screenshot(str(path))
        if docs and os.environ.get("CREDO_DOCS_SCREENSHOTS") == "1":
            DOCS.mkdir(exist_ok=True)
            driver.save_screenshot(str(DOCS / f"{name}.png"))
        return path

    return shot


def rest(url: str, key: str):
    """An httpx client on the served REST API, with the tenant's key."""
    return httpx.Client(base_url=url, headers={"X-API-Key": key}, timeout=30)


def served_owner(api, at: str) -> list[str]:
    """The dated owners of the Acme account served at `at`."""
    page = api.get("/v1/facts", params={"subject": "Acme account", "predicate": "owned_by", "valid_at": at}).json()
    return [f["object_name"] for f in page["items"]]


def found_by_search(api, query: str) -> set[str]:
    """The fact ids /v1/search answers for the query, valid on 2024-03-01 (while Alice owned the account)."""
    answer = api.get("/v1/search", params={"query": query, "valid_at": "2024-03-01"})
    assert answer.status_code == 200, answer.text
    return {h["id"] for h in answer.json()["hits"] if h["kind"] == "fact"}


def seed(api) -> dict[str, str]:
    """A quoted fact, a conflicting fact, a premise and a rule resting on it, all through REST."""
    assert api.post("/v1/sessions/s1/messages", json={"messages": [
        {"index": 0, "role": "user", "origin": "human_input", "author": "maria",
         "text": "Alice owns the Acme account now.", "at": "2024-01-05T09:00:00Z"}]}).is_success
    alice = api.post("/v1/sessions/s1/remember", json={
        "quote": "Alice owns the Acme account", "content": "Alice owns the Acme account", "subject": "Acme account",
        "predicate": "owned_by", "object": "Alice", "valid_from": "2024-01-05"}).json()["result"]
    # the agent shows "I will remember that ..." and relays Maria's yes: the surfaced write serves from then on
    said = api.post("/v1/sessions/s1/messages", json={"messages": [
        {"index": 1, "role": "assistant", "origin": "agent", "author": "agent", "text": alice["surface"],
         "at": "2024-01-05T09:01:00Z"},
        {"index": 2, "role": "user", "origin": "human_input", "author": "maria", "text": "Yes.",
         "at": "2024-01-05T09:02:00Z"}]}).json()["result"]
    consented = api.post(f"/v1/facts/{alice['fact_id']}/consent",
                         json={"decision": "accept", "message_id": said[-1]["source_id"]})
    assert consented.is_success, consented.text
    bob = api.post("/v1/facts", json={"subject": "Acme account", "predicate": "owned_by", "object": "Bob",
                                      "valid_from": "2024-08-01"}).json()["result"]
    assert bob["state"] == "conflicted"
    plan = api.post("/v1/facts", json={"subject": "Acme account", "predicate": "plan", "object": "gold",
                                       "valid_from": "2024-01-01", "object_is_entity": False}).json()["result"]
    rule = api.post("/v1/facts", json={"subject": "Acme account", "predicate": "discount", "object": "10%",
                                       "valid_from": "2024-01-01", "object_is_entity": False,
                                       "depends_on": [plan["fact_id"]]}).json()["result"]
    api.post("/v1/summaries", json={"text": "Acme account owner", "derived_from": [alice["fact_id"]]})
    return {"alice": alice["fact_id"], "bob": bob["fact_id"], "plan": plan["fact_id"], "rule": rule["fact_id"]}


def test_a_person_resolves_a_conflict_and_reverifies_a_stale_rule_in_the_browser(served, neo4j_db, shots):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    tenant = new_tenant(neo4j_db)
    with rest(served, tenant.key) as api, chromium() as driver:
        # given a fact, a conflicting fact, and a premise with a dependent rule, recorded through REST
        ids = seed(api)
        assert served_owner(api, "2024-09-01") == ["Alice"]
        wait = WebDriverWait(driver, 15)

        # when the person logs in (keyboard only) and types the entity's name
        driver.get(f"{served}/ui/entities")
        wait.until(ec.presence_of_element_located((By.ID, "api_key"))).send_keys(tenant.key, Keys.ENTER)
        search = wait.until(ec.presence_of_element_located((By.ID, "q")))
        search.send_keys("acme acc")
        wait.until(lambda d: "q=acme" in d.current_url)
        link = wait.until(ec.element_to_be_clickable((By.LINK_TEXT, "Acme account")))
        shots(driver, "entities")

        # then the timeline shows a rectangle per version, the conflict labelled
        link.click()
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "svg.timeline")))
        rects = driver.find_elements(By.CSS_SELECTOR, "svg .version rect")
        versions = api.get("/v1/entities/Acme account/versions").json()["items"]
        assert len(rects) == len(versions) >= 4
        assert driver.find_elements(By.CSS_SELECTOR, "svg .version.conflict")
        assert driver.find_elements(By.CSS_SELECTOR, "svg .version.disputed")
        shots(driver, "timeline-before")

        # when the person resolves the conflict as a succession with one click
        driver.get(f"{served}/ui/queues")
        driver.find_element(By.CSS_SELECTOR, "form[action*='/resolve'] button[value='succession']").click()
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".flash")))
        shots(driver, "queues-resolved")
        # then the served value changes
        assert served_owner(api, "2024-09-01") == ["Bob"]

        # when the premise ends through the API
        assert api.post(f"/v1/facts/{ids['plan']}/end", json={"at": "2025-06-01"}).status_code == 200
        # then the rule is in the stale queue with its cause
        driver.get(f"{served}/ui/queues")
        item = wait.until(ec.presence_of_element_located((By.ID, f"stale-{ids['rule']}")))
        assert "Acme account discount 10%" in item.text and ids["plan"] in item.find_element(By.CLASS_NAME, "cause").text
        shots(driver, "queues-stale")
        # when the person re-verifies it with one click, then it leaves the queue
        item.find_element(By.CSS_SELECTOR, "button[value='holds']").click()
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".flash")))
        assert not driver.find_elements(By.ID, f"stale-{ids['rule']}")
        assert ids["rule"] not in {i["id"] for i in api.get("/v1/stale").json()["items"]}

        # and the timeline now labels the succession; the as-of answer follows the inputs
        driver.get(f"{served}/ui/entities/Acme account")
        driver.find_element(By.ID, "valid_at").send_keys("2024-09-01", Keys.ENTER)
        wait.until(lambda d: "valid_at=2024-09-01" in d.current_url)
        assert driver.find_elements(By.CSS_SELECTOR, "svg .version.succession")
        assert "Bob" in driver.find_element(By.ID, "as-of").text
        shots(driver, "timeline", docs=True)

        # and the why-view shows the quote, its message and session, the summary derived from it
        driver.get(f"{served}/ui/facts/{ids['alice']}")
        body = driver.find_element(By.TAG_NAME, "main").text
        assert "Alice owns the Acme account" in body and "maria" in body and "s1" in body
        assert "Acme account owner" in body
        shots(driver, "why", docs=True)

        # when the person forgets that fact with one click (and confirms what it reaches)
        assert ids["alice"] in found_by_search(api, "Alice owns the Acme account")
        driver.find_element(By.CLASS_NAME, "forget-link").click()
        reach = wait.until(ec.presence_of_element_located((By.ID, "reach"))).text
        assert "Acme account owner" in reach
        shots(driver, "forget-confirm")
        driver.find_element(By.ID, "confirm-forget").click()
        # then the residue report says complete, and search no longer finds it
        status = wait.until(ec.presence_of_element_located((By.ID, "residue-status")))
        assert status.text.startswith("Complete")
        shots(driver, "forget-residue")
        assert ids["alice"] not in found_by_search(api, "Alice owns the Acme account")


def test_pages_are_readable_on_a_narrow_window_and_every_control_has_a_label(served, neo4j_db, shots):
    from selenium.webdriver.common.by import By

    tenant = new_tenant(neo4j_db)
    with rest(served, tenant.key) as api, chromium(width=420, height=860) as driver:
        ids = seed(api)
        driver.get(f"{served}/ui/login")
        driver.find_element(By.ID, "api_key").send_keys(tenant.key)
        driver.find_element(By.ID, "login").click()
        for path in ("/ui/entities", "/ui/entities/Acme account", f"/ui/facts/{ids['rule']}", "/ui/queues",
                     "/ui/context?query=Acme account", f"/ui/forget?target={ids['alice']}",
                     "/ui/diff?since=2000-01-01", "/ui/policy", "/ui/timeline?entity=Acme account",
                     "/ui/transition?known_before=2000-01-01&known_after=2000-01-02"):
            driver.get(served + path)
            # nothing is wider than the window (tables scroll inside their own box)
            width = driver.execute_script("return document.documentElement.scrollWidth")
            assert width <= driver.execute_script("return window.innerWidth") + 1, path
            unlabelled = driver.execute_script(
                "return [...document.querySelectorAll('input:not([type=hidden]), select')]"
                ".filter(e => !(e.id && document.querySelector('label[for=\"' + e.id + '\"]'))).map(e => e.name)")
            assert unlabelled == [], (path, unlabelled)
            shots(driver, "narrow-" + path.strip("/").replace("/", "-").replace(" ", "_").replace("?", "-"))
