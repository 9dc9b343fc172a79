"""The MCP tools `timeline` and `recipes` answer one page (`limit`, default 50, at most 200; `next_cursor` to go on),
as REST does, cut in the query by key: an agent cannot read a tenant's whole episodic or procedural memory in one
call, and a limit past the cap or a foreign cursor is refused naming the field."""

from __future__ import annotations

import anyio
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
