"""Conflicts and a fact's history are paged by key in their queries over REST, and a keyset cursor is checked at the
boundary: one edited, foreign, oversized or undecodable answers a 4xx naming `cursor`, never a 500 or another page."""

from __future__ import annotations

import base64
import json

import pytest


def _conflicts(api, tenant, count: int) -> None:
    """`count` open conflicts: each subject holds one owner, then a second one is written over the same time."""
    for value in ("Alice", "Bob"):
        rows = [{"subject": f"Acct{i}", "predicate": "owned_by", "object": value, "valid_from": "2024-01-01"}
                for i in range(count)]
        assert api.post("/v1/facts/batch", json={"rows": rows}, headers=tenant.headers).status_code == 201


def _versions(api, tenant, count: int) -> str:
    """A fact with `count` versions (it is corrected `count - 1` times); returns its id."""
    fact = api.post("/v1/facts", json={"subject": "Acme", "predicate": "based_in", "object": "Oslo"},
                    headers=tenant.headers).json()["result"]
    for i in range(count - 1):
        assert api.post(f"/v1/facts/{fact['fact_id']}/correct", json={"statement": f"Acme is based in Oslo ({i})"},
                        headers=tenant.headers).status_code < 300
    return fact["fact_id"]


def _read_all(api, tenant, path: str, size: int) -> tuple[list[dict], int]:
    """Every item of a listing read `size` at a time, and how many pages it took."""
    items, cursor, pages = [], None, 0
    while True:
        page = api.get(path, params={"limit": size} | ({"cursor": cursor} if cursor else {}), headers=tenant.headers)
        assert page.status_code == 200, page.text
        items += page.json()["items"]
        pages, cursor = pages + 1, page.json()["next_cursor"]
        if not cursor:
            return items, pages


@pytest.mark.parametrize("listing", ["conflicts", "history"])
def test_a_listing_read_in_small_pages_returns_every_item_once_in_the_whole_reads_order(api, tenant_a, rows_read,
                                                                                    listing):
    if listing == "conflicts":
        _conflicts(api, tenant_a, 7)
        path, ident, query = "/v1/conflicts", "conflict_id", "read_conflicts"
    else:
        path, ident, query = f"/v1/facts/{_versions(api, tenant_a, 7)}/history", "version_id", "read_history"
    whole = api.get(path, params={"limit": 200}, headers=tenant_a.headers).json()
    assert len(whole["items"]) == 7 and whole["next_cursor"] is None
    read = rows_read(query)
    first = api.get(path, params={"limit": 2}, headers=tenant_a.headers).json()
    assert len(first["items"]) == 2 and first["next_cursor"]
    items, pages = _read_all(api, tenant_a, path, 3)
    assert [i[ident] for i in items] == [i[ident] for i in whole["items"]]  # each once, in the whole read's order
    assert pages == 3
    # each page read its page and one more row in the query, never the whole listing
    assert read == [3, 4, 4, 1]


def test_history_and_conflicts_keep_their_order_oldest_first(api, tenant_a):
    _conflicts(api, tenant_a, 4)
    conflicts = api.get("/v1/conflicts", headers=tenant_a.headers).json()["items"]
    assert [c["opened_at"] for c in conflicts] == sorted(c["opened_at"] for c in conflicts)
    history = api.get(f"/v1/facts/{_versions(api, tenant_a, 4)}/history", headers=tenant_a.headers).json()["items"]
    assert [v["known_from"] for v in history] == sorted(v["known_from"] for v in history)


# -- the cursor at the boundary -------------------------------------------------------------------------------------
def _decode(cursor: str) -> dict:
    return json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))


def _encode(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def _edited(cursor: str, **changes) -> str:
    return _encode(_decode(cursor) | changes)


@pytest.fixture
def listings(api, tenant_a) -> dict[str, str]:
    """Each keyset listing's path and a real second-page cursor of it."""
    _conflicts(api, tenant_a, 3)
    fact_id = _versions(api, tenant_a, 3)
    for name in ("lives_in", "owns", "uses"):
        assert api.post("/v1/predicates", json={"name": name}, headers=tenant_a.headers).status_code < 300
    premise = api.post("/v1/facts", json={"subject": "Acme", "predicate": "owned_by", "object": "Alice"},
                       headers=tenant_a.headers).json()["result"]
    for i in range(2):  # two summaries and two rules on one premise: retracted, four stale items
        for base in (premise["fact_id"], fact_id):  # and two summaries served
            assert api.post("/v1/summaries", json={"text": f"notes {i}", "derived_from": [base]},
                            headers=tenant_a.headers).status_code < 300
        assert api.post("/v1/facts", json={"subject": f"rule {i}", "predicate": "is", "object": "rule",
                                           "depends_on": [premise["fact_id"]]}, headers=tenant_a.headers).is_success
    for _ in range(2):  # two read receipts of one task, each serving the premise
        assert api.get("/v1/search", params={"query": "Acme owned by Alice", "task": "t1"},
                       headers=tenant_a.headers).is_success
    assert api.post(f"/v1/facts/{premise['fact_id']}/retract", json={"reason": "wrong"},
                    headers=tenant_a.headers).is_success
    paths = {"conflicts": "/v1/conflicts", "history": f"/v1/facts/{fact_id}/history", "predicates": "/v1/predicates",
             "facts": "/v1/facts", "summaries": "/v1/summaries", "stale": "/v1/stale",
             "served_to": "/v1/tasks/t1/receipts", "tasks_served": f"/v1/facts/{premise['fact_id']}/tasks"}
    cursors = {path: api.get(path, params={"limit": 1}, headers=tenant_a.headers).json()["next_cursor"]
               for path in paths.values()}
    assert all(cursors.values()), cursors  # every listing has a second page
    return cursors


CURSORS = {
    "a key holding a lone surrogate": lambda c: _edited(c, a=["\ud800", "\udfff"] if isinstance(_decode(c).get("a"), list)
                                                         else "\ud800"),
    "a pinned time holding a lone surrogate": lambda c: _edited(c, k="2024-01-01T00:00:00\ud800"),
    "an oversized cursor": lambda c: "A" * 20_000,  # 100 kB is refused by the client's URL limit (next test)
    "a key of another listing's shape": lambda c: _edited(c, a="owns" if isinstance(_decode(c).get("a"), list)
                                                          else ["2024-01-01T00:00:00+00:00", "x"]),
    "a key whose time is not one": lambda c: _edited(c, a=["yesterday", "x", "y"][:len(_decode(c).get("a") or [0, 0])]),
    "a key nested deeper": lambda c: _edited(c, a=[["x"], "y"]),
    "a pinned time that is not one": lambda c: _edited(c, k="not a time"),
    "a negative offset": lambda c: _edited(c, o=-1),
    "a fingerprint of another query": lambda c: _edited(c, q="0" * 16),
    "a flipped character": lambda c: c[:5] + ("B" if c[5] != "B" else "C") + c[6:],
    "garbage base64": lambda c: "%%%not*base64%%%",
    "base64 of no JSON": lambda c: base64.urlsafe_b64encode(b"\xff\xfe\x00garbage").decode(),
    "deep JSON": lambda c: _encode_raw("[" * 5000 + "]" * 5000),
}


def _encode_raw(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize("attack", list(CURSORS))
def test_a_forged_cursor_answers_a_problem_naming_the_cursor_never_a_500_or_another_page(api, tenant_a, listings,
                                                                                         attack):
    for path, real in listings.items():
        forged = CURSORS[attack](real)
        answer = api.get(path, params={"limit": 1, "cursor": forged}, headers=tenant_a.headers)
        assert 400 <= answer.status_code < 500, (path, answer.status_code, answer.text)
        assert answer.json().get("field") == "cursor", (path, answer.text)


def test_a_100_kb_cursor_is_refused_before_it_is_decoded():
    from credo.api import pages
    from credo.schema.errors import InvalidInput

    for cursor in ("A" * 100_000, _encode({"o": 1, "k": None, "q": "x", "a": "y" * 100_000})):
        with pytest.raises(InvalidInput) as refused:
            pages.read_cursor(cursor, "x")
        assert refused.value.field == "cursor"


def test_a_cursor_of_another_listing_is_refused_there(api, tenant_a, listings):
    for path in listings:
        for other, cursor in listings.items():
            if other != path:
                answer = api.get(path, params={"limit": 1, "cursor": cursor}, headers=tenant_a.headers)
                assert answer.status_code == 422 and answer.json()["field"] == "cursor", (path, other)
