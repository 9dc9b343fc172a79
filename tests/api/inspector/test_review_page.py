"""The inspector's review page (issue 27 item 2): each pending item's candidate beside its excerpt, server-rendered
without script, with approve / reject / edit-and-approve forms under the CSRF token; and in headless Chromium against
a real `credo serve` (CREDO_VERIFIER=review) a person approves one item and rejects another."""

from __future__ import annotations

from datetime import datetime, timezone

import httpx
import pytest

from credo.services.verify.review import ReviewQueue
from credo.store import Store
from tests.api.browser import chromium
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_pages import csrf_of, login
from tests.api.rest.test_serve import serving

MIGRATE = "Heads up: don't migrate the orders table while API v1 reads it."
OWNER = "Bob owns the billing service."


def messages() -> list[dict]:
    at = datetime(2025, 6, 1, tzinfo=timezone.utc).isoformat()
    return [{"index": i, "role": "user", "origin": "human_input", "author": "alice", "text": t, "at": at}
            for i, t in enumerate((MIGRATE, OWNER))]


def queued(neo4j_db, tenant: str) -> tuple[Store, list[str]]:
    """Two remembered facts of `tenant`, each queued for review; the store and their fact ids."""
    store = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False, verifier=ReviewQueue())
    store.ingest_messages("w", messages())
    turn = store.turn("w")
    ids = [turn.remember("don't migrate the orders table", "Never migrate the orders table",
                         subject="orders table", predicate="migration_policy", object="never migrate").fact_id,
           turn.remember("Bob owns the billing service", "Bob owns billing", subject="Bob", predicate="owns",
                         object="billing").fact_id]
    for fact_id in ids:
        store.verify(fact_id)
    return store, ids


def test_the_review_page_shows_each_candidate_beside_its_excerpt_and_its_forms_decide(api, neo4j_db, tenant_a):
    store, (migrate, owner) = queued(neo4j_db, tenant_a.name)
    login(api, tenant_a)
    page = api.get("/ui/review")
    assert page.status_code == 200 and "<script" not in page.text and 'href="/ui/review"' in page.text
    assert "Never migrate the orders table" in page.text and "while API v1 reads it" in page.text
    items = api.get("/ui/review.json").json()["items"]
    assert [i["fact_id"] for i in items] == [migrate, owner]
    first = items[0]["item_id"]
    # a post without the page's token writes nothing
    forged = api.post(f"/ui/reviews/{first}", data={"decision": "approve", "csrf": "forged"}, follow_redirects=False)
    assert forged.status_code in (400, 403) and len(store.review_queue()) == 2
    token = csrf_of(page.text)
    edited = api.post(f"/ui/reviews/{first}", follow_redirects=False, data={
        "decision": "edit", "statement": "Don't migrate the orders table while API v1 reads it", "csrf": token})
    assert edited.status_code == 303 and "flash=review_edited" in edited.headers["location"]
    assert store.why(migrate).fact.statement == "Don't migrate the orders table while API v1 reads it"
    assert store.why(migrate).verified_by.verdict == "supported"
    assert [i.fact_id for i in store.review_queue()] == [owner]


def test_the_review_page_asks_for_a_login(api):
    assert api.get("/ui/review", follow_redirects=False).status_code == 303
    assert api.get("/ui/review.json").status_code == 401


@pytest.fixture
def served(cli_env):
    """`credo serve` with auth on and the human review queue as its verifier."""
    with serving(dict(cli_env, CREDO_AUTH="on", CREDO_VERIFIER="review")) as (url, _):
        yield url


def test_a_person_approves_one_item_and_rejects_another_in_the_browser(served, neo4j_db):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    tenant = new_tenant(neo4j_db)
    with httpx.Client(base_url=served, headers={"X-API-Key": tenant.key}, timeout=30) as api, chromium() as driver:
        # given two remembered facts, each queued for review by the server's configured verifier (REST verify)
        assert api.post("/v1/sessions/w/messages", json={"messages": messages()}).is_success
        ids = []
        for quote, content, s, p, o in (("don't migrate the orders table", "Never migrate the orders table",
                                          "orders table", "migration_policy", "never migrate"),
                                         ("Bob owns the billing service", "Bob owns billing", "Bob", "owns",
                                          "billing")):
            made = api.post("/v1/sessions/w/remember", json={"quote": quote, "content": content, "subject": s,
                                                             "predicate": p, "object": o})
            assert made.is_success, made.text
            ids.append(made.json()["result"]["fact_id"])
            answer = api.post(f"/v1/facts/{ids[-1]}/verify", json={}).json()["result"]
            assert answer["status"] == "queued"
        migrate, owner = ids
        items = {i["fact_id"]: i["item_id"] for i in api.get("/v1/reviews").json()["items"]}
        wait = WebDriverWait(driver, 15)

        # when the person logs in and opens the review page
        driver.get(f"{served}/ui/review")
        wait.until(ec.presence_of_element_located((By.ID, "api_key"))).send_keys(tenant.key, Keys.ENTER)
        wait.until(ec.url_contains("/ui/"))
        driver.get(f"{served}/ui/review")
        rejected = wait.until(ec.presence_of_element_located((By.ID, f"review-{items[migrate]}")))
        # then each candidate stands beside its quote and message
        assert "Never migrate the orders table" in rejected.text and MIGRATE in rejected.text
        # when the person rejects the over-reaching one, with a reason
        rejected.find_element(By.ID, f"reason-{items[migrate]}").send_keys("drops 'while API v1 reads it'")
        rejected.find_element(By.CSS_SELECTOR, "button[value='reject']").click()
        wait.until(ec.url_contains("flash=review_rejected"))
        assert not driver.find_elements(By.ID, f"review-{items[migrate]}")
        # and approves the other
        approved = driver.find_element(By.ID, f"review-{items[owner]}")
        approved.find_element(By.CSS_SELECTOR, "button[value='approve']").click()
        wait.until(ec.url_contains("flash=review_approved"))
        assert "Nothing waits for review" in driver.find_element(By.TAG_NAME, "main").text

        # then the store holds both verdicts, each a person's, and the facts' evidence is unchanged
        no = api.get(f"/v1/facts/{migrate}/why").json()
        yes = api.get(f"/v1/facts/{owner}/why").json()
        assert (no["verified_by"]["verdict"], no["verified_by"]["verifier"], no["verified_by"]["reason"]) == (
            "unsupported", "review", "drops 'while API v1 reads it'")
        assert (yes["verified_by"]["verdict"], yes["verified_by"]["verifier"]) == ("supported", "review")
        assert no["verified_by"]["actor"] and no["verification"].startswith("unsupported per review by")
        assert no["evidence"] == yes["evidence"] == "stated" and no["fact"]["state"] == yes["fact"]["state"]
        assert api.get("/v1/reviews").json()["items"] == []
