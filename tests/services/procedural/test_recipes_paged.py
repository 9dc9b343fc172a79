"""`recipes` reads one page in its query (keyset on rate, uses, id: best first), so no caller reads a shape's every
recipe at once; the pages of one listing join into the whole, best first, and a cursor edited by hand is refused."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput
from credo.schema.pages import After

SHAPE = "deploy a service to staging"


def test_the_recipes_of_a_shape_page_by_key_best_first(store):
    success = store.add_source("tool_result", "rolled out")
    made = [store.record_recipe(SHAPE, [f"way {i}"], because=success.source_id) for i in range(5)]
    for outcome in ("success", "success"):
        store.recipe_outcome(made[3].recipe_id, outcome)
    store.recipe_outcome(made[1].recipe_id, "success")
    whole = [r.recipe_id for r in store.recipes(SHAPE)]
    assert whole[:2] == [made[3].recipe_id, made[1].recipe_id] and len(whole) == 5
    seen, key = [], None
    while True:
        page = store.recipes(SHAPE, page=After(key, 2))
        assert len(page) <= 2
        seen += [r.recipe_id for r in page]
        key = page.next_after
        if key is None:
            break
    assert seen == whole


@pytest.mark.parametrize("key", [["x", "0", "r_1"], ["0.5", "-1", "r_1"], ["nan", "0", "r_1"], ["0.5", "1"], "r_1"])
def test_a_recipes_cursor_key_of_another_shape_is_refused_naming_the_cursor(store, key):
    with pytest.raises(InvalidInput) as refused:
        store.recipes(SHAPE, page=After(key, 2))
    assert refused.value.field == "cursor"
