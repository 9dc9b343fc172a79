"""The inspector's "what changed" page: the belief diff between two known times, server-rendered without script, and
its JSON twin."""

from __future__ import annotations

import pytest

from credo.store import Store
from tests.api.inspector.test_inspector_pages import login


@pytest.fixture
def a_store(neo4j_db, tenant_a):
    """Tenant A's store (no embeddings), on the wall clock as the page's default window is."""
    return Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False)


def test_what_changed_page_lists_the_weeks_changes_and_a_forgotten_fact_as_a_tombstone(api, tenant_a, a_store):
    # given this week: a fact added, one corrected, one retracted, one forgotten
    alice = a_store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    role = a_store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01")
    a_store.correct_fact(role.fact_id, object="staff engineer")
    rumour = a_store.add_fact("Acme", "acquires", "Initech", valid_from="2024-05-01")
    a_store.retract_fact(rumour.fact_id, reason="it was a rumour")
    salary = a_store.add_fact("Carol", "earns", "91234 a year", valid_from="2024-01-01")
    a_store.forget(salary.fact_id, reason="Carol asked", actor="Carol")
    login(api, tenant_a)
    # when the person opens the page with its default window (the last seven days)
    page = api.get("/ui/diff")
    assert page.status_code == 200, page.text
    # then each change is a row, oldest first, linking to the fact's why-view; no script on the page
    assert 'href="/ui/diff"' in page.text and "<script" not in page.text
    assert f'href="/ui/facts/{alice.fact_id}"' in page.text and "staff engineer" in page.text
    assert "it was a rumour" in page.text and "corrected" in page.text and "retracted" in page.text
    # and the forgotten fact is a tombstone: its id, never its content
    assert f"<code>{salary.fact_id}</code>" in page.text and "91234" not in page.text
    twin = api.get("/ui/diff.json").json()
    kinds = [(c["kind"], c["fact_id"]) for c in twin["diff"]["changes"]]
    assert ("forgotten", salary.fact_id) in kinds and ("corrected", role.fact_id) in kinds
    assert "91234" not in api.get("/ui/diff.json").text
    # a subject narrows it; a window that ends before it starts is a problem page naming the field
    about_bob = api.get("/ui/diff.json", params={"subject": "Bob"}).json()["diff"]["changes"]
    assert {c["fact_id"] for c in about_bob} == {role.fact_id}
    reversed_ = api.get("/ui/diff", params={"since": "2025-02-01", "until": "2025-01-01"})
    assert reversed_.status_code == 422 and "known_b" in reversed_.text
    assert api.get("/ui/diff.json", params={"since": "2025-02-01", "until": "2025-01-01"}).json()["field"] == "known_b"


def test_what_changed_page_asks_for_a_login(api):
    assert api.get("/ui/diff", follow_redirects=False).status_code == 303
    assert api.get("/ui/diff.json").status_code == 401
