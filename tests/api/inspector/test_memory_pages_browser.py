"""Issue 27's inspector pages in headless Chromium against a real `credo serve` (auth on): a person reads the write
policy in force, an entity's episodes in time order and what a reflection proposes from them, and the marks of an
operational rule on its why page."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo.store import Store
from tests.api.browser import chromium
from tests.api.conftest import new_tenant
from tests.api.rest.test_serve import serving

RULE = "Deploys to production need a passing canary"


@pytest.fixture
def served(cli_env):
    """`credo serve` with auth on, on a free loopback port."""
    with serving(dict(cli_env, CREDO_AUTH="on")) as (url, _):
        yield url


def seeded(db, tenant: str) -> dict[str, str]:
    """A write policy, three train rides and a taxi as episodes, and an operational rule stated in a conversation."""
    store = Store(db, tenant=tenant, embedder=None, _owns_db=False)
    policy = store.set_write_policy({"episodic": {"ttl": {"default": "P7D", "incident": "P90D"}}})
    for day in (5, 6, 7):
        store.add_fact("Alice", "took", "the 8:10 train", kind="episodic", valid_from=f"2025-05-0{day}T08:10:00Z",
                       object_is_entity=False, statement="Alice took the 8:10 train")
    store.add_fact("Alice", "took", "a taxi", kind="episodic", valid_from="2025-05-08T08:10:00Z",
                   object_is_entity=False, statement="Alice took a taxi")
    store.ingest_messages("s", [{"index": 0, "role": "user", "origin": "human_input", "author": "alice",
                                 "text": f"{RULE}.", "at": datetime(2025, 3, 1, 9, tzinfo=timezone.utc)}])
    rule = store.remember("s", RULE, RULE, subject="production", predicate="deploy_rule", operational=True,
                          valid_from="2025-01-01")
    return {"policy": policy.policy_id, "rule": rule.fact_id}


def test_a_person_reads_the_policy_the_episodes_a_reflection_and_a_rules_marks_in_the_browser(served, neo4j_db):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    tenant = new_tenant(neo4j_db)
    ids = seeded(neo4j_db, tenant.name)
    with chromium() as driver:
        wait = WebDriverWait(driver, 15)
        driver.get(f"{served}/ui/policy")
        wait.until(ec.presence_of_element_located((By.ID, "api_key"))).send_keys(tenant.key, Keys.ENTER)
        wait.until(ec.url_contains("/ui/policy"))
        # the policy in force: its id, and per kind what it earns and the episodic TTLs the tenant set
        assert ids["policy"] in driver.find_element(By.ID, "policy-version").text
        episodic = driver.find_element(By.ID, "kind-episodic").text
        assert "default: P7D" in episodic and "incident: P90D" in episodic and "always" in episodic
        assert "credo policy set" in driver.find_element(By.TAG_NAME, "main").text

        # the episodes page, reached from the navigation, then named by entity
        driver.find_element(By.CSS_SELECTOR, "nav a[href='/ui/timeline']").click()
        wait.until(ec.presence_of_element_located((By.ID, "entity"))).send_keys("Alice", Keys.ENTER)
        rows = wait.until(ec.presence_of_all_elements_located((By.CSS_SELECTOR, "#episodes tr.episode")))
        assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == ["Alice took the 8:10 train"] * 3 + [
            "Alice took a taxi"]
        # a reflection proposes what recurs, and says it wrote nothing semantic
        driver.find_element(By.ID, "reflect").click()
        summary = wait.until(ec.presence_of_element_located((By.ID, "reflection-summary")))
        assert "Read 4 episodes" in summary.text and "1 proposal" in summary.text
        proposal = driver.find_element(By.CSS_SELECTOR, ".proposal").text
        assert "Alice took the 8:10 train" in proposal and "3 times" in proposal

        # the operational rule's why page: its write plan, its verification, and what evidence it lacks
        driver.get(f"{served}/ui/facts/{ids['rule']}")
        marks = wait.until(ec.presence_of_element_located((By.ID, "marks"))).text
        assert "Admitted by write policy" in marks and ids["policy"] in marks
        assert "Verification: not verified" in marks
        assert "Operational (it can change production): missing" in marks and "held as a hypothesis" in marks
