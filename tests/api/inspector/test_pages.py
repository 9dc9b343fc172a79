"""Cursor pagination over REST: limit default 50 / max 200, pages that never drift under writes, no silent cap."""

from __future__ import annotations


def add_notes(api, tenant, prefix: str, count: int) -> None:
    rows = [{"subject": f"{prefix}{i}", "predicate": "note", "object": f"v{i}", "object_is_entity": False,
             "valid_from": "2024-01-01"} for i in range(count)]
    assert api.post("/v1/facts/batch", json={"rows": rows}, headers=tenant.headers).status_code == 201


def test_pages_of_a_listing_read_as_of_the_first_page_even_while_writes_arrive(api, tenant_a):
    add_notes(api, tenant_a, "a", 120)
    first = api.get("/v1/facts", params={"predicate": "note"}, headers=tenant_a.headers).json()
    assert len(first["items"]) == 50 and first["next_cursor"]
    add_notes(api, tenant_a, "late", 30)  # written between pages: not part of this listing
    seen = [f["subject"] for f in first["items"]]
    cursor = first["next_cursor"]
    while cursor:
        page = api.get("/v1/facts", params={"predicate": "note", "cursor": cursor}, headers=tenant_a.headers).json()
        seen += [f["subject"] for f in page["items"]]
        cursor = page["next_cursor"]
    assert sorted(seen) == sorted(f"a{i}" for i in range(120))
    fresh = api.get("/v1/facts", params={"predicate": "note", "limit": 200}, headers=tenant_a.headers).json()
    assert len(fresh["items"]) == 150 and fresh["next_cursor"] is None


def test_a_cursor_of_another_query_and_a_limit_over_200_are_bad_input(api, tenant_a):
    add_notes(api, tenant_a, "b", 3)
    cursor = api.get("/v1/facts", params={"predicate": "note", "limit": 1}, headers=tenant_a.headers).json()
    other = api.get("/v1/facts", params={"predicate": "other", "cursor": cursor["next_cursor"]},
                    headers=tenant_a.headers)
    assert other.status_code == 422 and other.json()["field"] == "cursor"
    broken = api.get("/v1/facts", params={"cursor": "not-a-cursor"}, headers=tenant_a.headers)
    assert broken.status_code == 422 and broken.json()["field"] == "cursor"
    too_many = api.get("/v1/facts", params={"limit": 201}, headers=tenant_a.headers)
    assert too_many.status_code == 422 and too_many.json()["field"] == "limit"


def test_a_cursor_holding_an_overflowing_number_is_bad_input_not_a_500():
    import base64

    import pytest

    from credo.api import pages
    from credo.schema.errors import InvalidInput

    cursor = base64.urlsafe_b64encode(b'{"o":1e999,"q":"x"}').decode().rstrip("=")
    with pytest.raises(InvalidInput) as refused:
        pages.decode(cursor, "x")
    assert refused.value.field == "cursor"


def test_the_predicates_listing_is_paged_by_key_in_its_query(api, tenant_a, monkeypatch):
    from credo.graph.core import db as db_module

    for name in ["works_at", "lives_in", "reports_to", "owns", "uses"]:
        assert api.post("/v1/predicates", json={"name": name}, headers=tenant_a.headers).status_code < 300
    read: list[dict] = []
    real = db_module.Tx.rows

    def counting(self, query, **params):
        rows = real(self, query, **params)
        if getattr(query, "name", "") == "read_predicates":
            read.append({"after": params["after"], "rows": len(rows)})
        return rows

    monkeypatch.setattr(db_module.Tx, "rows", counting)
    first = api.get("/v1/predicates", params={"limit": 2}, headers=tenant_a.headers).json()
    assert [p["name"] for p in first["items"]] == ["lives_in", "owns"]
    # a predicate defined between pages before the cursor's key shifts nothing (an offset would repeat "owns")
    assert api.post("/v1/predicates", json={"name": "knows"}, headers=tenant_a.headers).status_code < 300
    names, cursor = [], first["next_cursor"]
    while cursor:
        page = api.get("/v1/predicates", params={"limit": 2, "cursor": cursor}, headers=tenant_a.headers).json()
        names += [p["name"] for p in page["items"]]
        cursor = page["next_cursor"]
    assert names == ["reports_to", "uses", "works_at"]
    # each page read its page and one more row, after the previous page's last key: nothing before it
    assert read == [{"after": None, "rows": 3}, {"after": "owns", "rows": 3}, {"after": "uses", "rows": 1}]


def test_a_tasks_receipts_and_a_facts_tasks_are_paged_by_key_in_their_queries(api, tenant_a, monkeypatch):
    from credo.graph.core import db as db_module

    fact = api.post("/v1/facts", json={"subject": "Acme", "predicate": "owned_by", "object": "Alice"},
                    headers=tenant_a.headers).json()["result"]
    for _ in range(5):
        assert api.get("/v1/context", params={"query": "Acme", "task": "t-1"}, headers=tenant_a.headers).is_success
    whole = api.get("/v1/tasks/t-1/receipts", params={"limit": 200}, headers=tenant_a.headers).json()
    assert len(whole["items"]) == 5 and whole["next_cursor"] is None
    read: list[int] = []
    real = db_module.Tx.rows

    def counting(self, query, **params):
        rows = real(self, query, **params)
        if getattr(query, "name", "") in ("read_served_to", "read_tasks_served"):
            read.append(len(rows))
        return rows

    monkeypatch.setattr(db_module.Tx, "rows", counting)
    for path in ["/v1/tasks/t-1/receipts", f"/v1/facts/{fact['fact_id']}/tasks"]:
        ids, cursor = [], None
        while True:
            page = api.get(path, params={"limit": 2} | ({"cursor": cursor} if cursor else {}),
                           headers=tenant_a.headers).json()
            ids += [r["receipt_id"] for r in page["items"]]
            cursor = page["next_cursor"]
            if not cursor:
                break
        assert ids == [r["receipt_id"] for r in whole["items"]], path
    assert read == [3, 3, 1] * 2  # each page read its page and one more row: none before it, none after


def test_the_summaries_listing_is_paged_by_key_in_its_query(api, tenant_a, rows_read):
    fact = api.post("/v1/facts", json={"subject": "Acme", "predicate": "owned_by", "object": "Alice"},
                    headers=tenant_a.headers).json()["result"]
    for i in range(5):
        made = api.post("/v1/summaries", json={"text": f"notes {i}", "derived_from": [fact["fact_id"]]},
                        headers=tenant_a.headers)
        assert made.is_success, made.text
    whole = api.get("/v1/summaries", params={"limit": 200}, headers=tenant_a.headers).json()
    assert len(whole["items"]) == 5 and whole["next_cursor"] is None
    read = rows_read("read_summaries")
    ids, cursor = [], None
    while True:
        page = api.get("/v1/summaries", params={"limit": 2} | ({"cursor": cursor} if cursor else {}),
                       headers=tenant_a.headers).json()
        ids += [s["version_id"] for s in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert ids == [s["version_id"] for s in whole["items"]] and read == [3, 3, 1]


def test_a_keyed_listing_reads_page_by_page_through_its_handler(api, tenant_a):
    # given five predicates defined; when they are listed two at a time (the page is cut in the handler's query)
    for name in ("p_a", "p_b", "p_c", "p_d", "p_e"):
        assert api.post("/v1/predicates", json={"name": name}, headers=tenant_a.headers).status_code in (200, 201)
    first = api.get("/v1/predicates", params={"limit": 2}, headers=tenant_a.headers).json()
    seen, cursor = [p["name"] for p in first["items"]], first["next_cursor"]
    while cursor:
        page = api.get("/v1/predicates", params={"cursor": cursor}, headers=tenant_a.headers).json()
        seen, cursor = seen + [p["name"] for p in page["items"]], page["next_cursor"]
    # then every one comes once, in name order, two a page
    assert len(first["items"]) == 2 and seen == ["p_a", "p_b", "p_c", "p_d", "p_e"]


def test_the_stale_queue_is_paged_by_key_in_its_query(api, tenant_a, rows_read):
    premise = api.post("/v1/facts", json={"subject": "Acme", "predicate": "owned_by", "object": "Alice"},
                       headers=tenant_a.headers).json()["result"]
    # five rules written in one batch share their known time, so their order (and a page's cut) falls to their ids
    rows = [{"subject": f"rule {i}", "predicate": "is", "object": "rule", "statement": f"rule {i}",
             "depends_on": [premise["fact_id"]]} for i in range(5)]
    assert api.post("/v1/facts/batch", json={"rows": rows}, headers=tenant_a.headers).status_code == 201
    for i in range(2):
        made = api.post("/v1/summaries", json={"text": f"notes {i}", "derived_from": [premise["fact_id"]]},
                        headers=tenant_a.headers)
        assert made.is_success, made.text
    retracted = api.post(f"/v1/facts/{premise['fact_id']}/retract", json={"reason": "it was wrong"},
                         headers=tenant_a.headers)
    assert retracted.is_success, retracted.text
    whole = api.get("/v1/stale", params={"limit": 200}, headers=tenant_a.headers).json()
    assert [i["kind"] for i in whole["items"]] == ["fact"] * 5 + ["summary"] * 2 and whole["next_cursor"] is None
    read = rows_read("read_stale")
    first = api.get("/v1/stale", params={"limit": 2}, headers=tenant_a.headers).json()
    assert len(first["items"]) == 2 and first["next_cursor"] and read == [3]  # the query read 2 and one more
    seen, cursor = [(i["id"], i["version_id"]) for i in first["items"]], first["next_cursor"]
    while cursor:
        page = api.get("/v1/stale", params={"limit": 2, "cursor": cursor}, headers=tenant_a.headers).json()
        seen += [(i["id"], i["version_id"]) for i in page["items"]]
        cursor = page["next_cursor"]
    # every item exactly once, in the whole list's order; each page read its page and one more row, none before it
    assert seen == [(i["id"], i["version_id"]) for i in whole["items"]] and read == [3, 3, 3, 1]
