"""The MCP listing tools (`timeline`, `recipes`, `stale`, `conflicts`, `facts_as_of`, `who`) answer one page (`limit`,
default 50, at most 200; `next_cursor` to go on), as REST does and through the same path, cut in the query: an agent
cannot read a tenant's whole memory in one call, a write between pages neither repeats nor skips an item, and a limit
past the cap or a foreign cursor is refused naming the field."""

from __future__ import annotations

import base64
import json

import anyio
import pytest
from mcp.client import Client

from credo.api.mcp.server import build_server

SHAPE = "deploy a service to staging"


def _calls(store, *calls):
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(scenario)


def _every_page(store, tool, arguments, limit):
    """Follow `next_cursor` through every page; the items in order and the pages' sizes."""
    items, sizes, cursor = [], [], None
    while True:
        [answer] = _calls(store, (tool, arguments | {"limit": limit} | ({"cursor": cursor} if cursor else {})))
        assert not answer.is_error, answer.structured_content
        page = answer.structured_content
        items += page["items"]
        sizes.append(len(page["items"]))
        cursor = page["next_cursor"]
        if cursor is None:
            return items, sizes


def test_the_timeline_tool_pages_by_cursor(store):
    made = [store.add_fact("nightly job", "ran", f"build {day}", kind="episodic", object_is_entity=False,
                           valid_from=f"2025-02-0{day}", statement=f"the nightly job ran build {day}").fact_id
            for day in range(1, 6)]
    items, sizes = _every_page(store, "timeline", {"entity": "nightly job"}, 2)
    assert [f["fact_id"] for f in items] == made and sizes == [2, 2, 1]
    [whole] = _calls(store, ("timeline", {"entity": "nightly job"}))
    assert len(whole.structured_content["items"]) == 5 and whole.structured_content["next_cursor"] is None


def test_the_recipes_tool_pages_by_cursor_best_first(store):
    success = store.add_source("tool_result", "rolled out")
    made = [store.record_recipe(SHAPE, [f"way {i}"], because=success.source_id).recipe_id for i in range(5)]
    store.recipe_outcome(made[2], "success")
    items, sizes = _every_page(store, "recipes", {"task_shape": SHAPE}, 2)
    assert [r["recipe_id"] for r in items] == [r.recipe_id for r in store.recipes(SHAPE)] and sizes == [2, 2, 1]
    assert items[0]["recipe_id"] == made[2]


def test_a_limit_past_the_cap_or_a_foreign_cursor_is_refused_naming_the_field(store):
    success = store.add_source("tool_result", "rolled out")
    for i in range(3):
        store.record_recipe(SHAPE, [f"way {i}"], because=success.source_id)
    [first] = _calls(store, ("recipes", {"task_shape": SHAPE, "limit": 1}))
    cursor = first.structured_content["next_cursor"]
    over, zero, foreign, edited = _calls(
        store, ("recipes", {"task_shape": SHAPE, "limit": 201}), ("timeline", {"entity": "x", "limit": 0}),
        ("recipes", {"task_shape": "another shape", "cursor": cursor}),
        ("recipes", {"task_shape": SHAPE, "cursor": "bm90IGEgY3Vyc29y"}))
    for refused, field in ((over, "limit"), (zero, "limit"), (foreign, "cursor"), (edited, "cursor")):
        assert refused.is_error and refused.structured_content["field"] == field, refused.structured_content


def test_over_rest_recipes_page_by_key(api, tenant_a, neo4j_db):
    from credo.store import Store

    store = Store(neo4j_db, tenant=tenant_a.name, embedder=None, _owns_db=False)
    success = store.add_source("tool_result", "rolled out")
    for i in range(3):
        store.record_recipe(SHAPE, [f"way {i}"], because=success.source_id)
    first = api.get("/v1/recipes", headers=tenant_a.headers, params={"task_shape": SHAPE, "limit": 2}).json()
    rest = api.get("/v1/recipes", headers=tenant_a.headers,
                   params={"task_shape": SHAPE, "limit": 2, "cursor": first["next_cursor"]}).json()
    assert [r["recipe_id"] for r in first["items"] + rest["items"]] == [r.recipe_id for r in store.recipes(SHAPE)]
    assert rest["next_cursor"] is None
    assert '"a"' in __import__("base64").urlsafe_b64decode(first["next_cursor"] + "==").decode()  # a keyset cursor


# -- every listing tool pages: stale, conflicts, facts ------------------------------------------------------------
def _stale(store, count: int, at: str = "premise") -> None:
    """`count` rules resting on one premise, which is then retracted: `count` stale items."""
    premise = store.add_fact(at, "is", "true").fact_id
    for i in range(count):
        store.add_fact(f"{at} rule {i}", "is", "rule", depends_on=[premise])
    store.retract_fact(premise, reason="wrong")


def _conflicts(store, count: int, at: str = "Acct") -> None:
    """`count` open conflicts: each account holds one owner, then a second is written over the same time."""
    for owner in ("Alice", "Bob"):
        for i in range(count):
            store.add_fact(f"{at}{i}", "owned_by", owner, valid_from="2024-01-01")


def _facts(store, count: int, at: str = "Service") -> None:
    for i in range(count):
        store.add_fact(f"{at}{i}", "runs_on", f"host {i}", valid_from="2024-01-01")


def _relations(store, count: int, at: str = "Peer") -> None:
    """`count` relations of the entity Hub, both ways: it uses some, others own it."""
    for i in range(count):
        if i % 2:
            store.add_fact(f"{at} team {i}", "owns", "Hub", valid_from="2024-01-01", object_is_entity=True)
        else:
            store.add_fact("Hub", "uses", f"{at} tool {i}", valid_from=f"2024-01-0{i % 9 + 1}", object_is_entity=True)


LISTINGS = {  # tool -> (its arguments, how to seed `count` items, the id of an item, the key of the page's items)
    "stale": ({}, _stale, lambda i: i["version_id"], "items"),
    "conflicts": ({}, _conflicts, lambda c: c["conflict_id"], "conflicts"),
    "facts_as_of": ({}, _facts, lambda f: f["version_id"], "items"),
    "who": ({"entity": "Hub"}, _relations, lambda r: r["fact"]["version_id"], "items"),
}


def _pages(store, tool, arguments, limit, between=None):
    """Follow `next_cursor` through every page, `between()` run after the first; the items and the pages' sizes."""
    key = LISTINGS[tool][3]
    items, sizes, cursor = [], [], None
    while True:
        [answer] = _calls(store, (tool, arguments | {"limit": limit} | ({"cursor": cursor} if cursor else {})))
        assert not answer.is_error, answer.structured_content
        page = answer.structured_content
        items += page[key]
        sizes.append(len(page[key]))
        cursor = page["next_cursor"]
        if between is not None and len(sizes) == 1:
            between()
        if cursor is None:
            return items, sizes


@pytest.mark.parametrize("tool", sorted(LISTINGS))
def test_a_listing_tool_pages_by_cursor_in_order_with_no_duplicate_or_gap(store, tool):
    arguments, seed, ident, key = LISTINGS[tool]
    seed(store, 5)
    [whole] = _calls(store, (tool, arguments))
    before = [ident(i) for i in whole.structured_content[key]]
    assert len(before) == 5 and whole.structured_content["next_cursor"] is None
    items, sizes = _pages(store, tool, arguments, 2)
    assert [ident(i) for i in items] == before and sizes == [2, 2, 1]


@pytest.mark.parametrize("tool", sorted(LISTINGS))
def test_a_write_between_pages_neither_repeats_nor_skips_an_item(store, clock, tool):
    arguments, seed, ident, key = LISTINGS[tool]
    seed(store, 5)
    before = [ident(i) for i in _calls(store, (tool, arguments))[0].structured_content[key]]

    def write():  # lands after the first page (later than its pinned known time, where the tool takes one)
        clock.at("2099-01-01")
        seed(store, 1, "Later")

    items, _sizes = _pages(store, tool, arguments, 2, between=write)
    ids = [ident(i) for i in items]
    assert len(ids) == len(set(ids)) and ids[:5] == before  # each once, the first page's listing whole and in order
    if tool in ("facts_as_of", "who"):  # read at the first page's known time: the later write is not in this listing
        assert ids == before


@pytest.mark.parametrize("tool", sorted(LISTINGS))
def test_a_listing_tool_refuses_a_limit_past_the_cap_or_a_foreign_cursor(store, tool):
    arguments, seed, _ident, _key = LISTINGS[tool]
    seed(store, 3)
    [first] = _calls(store, (tool, arguments | {"limit": 1}))
    cursor = first.structured_content["next_cursor"]
    over, zero, foreign, edited = _calls(
        store, (tool, arguments | {"limit": 201}), (tool, arguments | {"limit": 0}),
        (tool, arguments | {"cursor": _foreign_cursor(cursor)}), (tool, arguments | {"cursor": "bm90IGEgY3Vyc29y"}))
    for refused, field in ((over, "limit"), (zero, "limit"), (foreign, "cursor"), (edited, "cursor")):
        assert refused.is_error and refused.structured_content["field"] == field, refused.structured_content


def _foreign_cursor(cursor: str) -> str:
    """The same cursor claimed for another query (its fingerprint changed)."""
    data = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    return base64.urlsafe_b64encode(json.dumps(data | {"q": "0" * 16}).encode()).decode().rstrip("=")


@pytest.mark.parametrize(("tool", "query"), [("stale", "read_stale"), ("conflicts", "read_conflicts"),
                                             ("facts_as_of", "read_facts_all"), ("who", "read_relations_page")])
def test_a_listing_tool_reads_its_page_in_the_query_not_the_whole_listing(store, rows_read, tool, query):
    arguments, seed, _ident, _key = LISTINGS[tool]
    seed(store, 7)
    read = rows_read(query)
    _pages(store, tool, arguments, 3)
    assert read == [4, 4, 1]  # each page its items and one more row, never the whole listing
