"""An entity's relations read one page at a time, cut in the query by key (`Store.relations(page=After(...))`): the
pages add up to the whole answer in its order (dated out, dated in, then the undated apart), each page reads its
items and one more row, an unsupported relation is passed over and the page refilled, and a key of another shape
is refused naming the cursor."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput, NotFound
from credo.schema.pages import After


def _seed(store) -> None:
    store.add_fact("Hub", "uses", "Tool A", valid_from="2024-01-03", object_is_entity=True)
    store.add_fact("Team B", "owns", "Hub", valid_from="2024-01-01", object_is_entity=True)
    store.add_fact("Hub", "uses", "Tool C", valid_from="2024-01-01", object_is_entity=True)
    store.add_fact("Hub", "runs_in", "Region D", object_is_entity=True)  # undated
    store.add_fact("Team E", "watches", "Hub", object_is_entity=True)  # undated
    store.add_fact("Team F", "funds", "Hub", valid_from="2024-01-02", object_is_entity=True)


def _all_pages(store, entity: str, limit: int):
    items, sizes, key = [], [], None
    while True:
        page = store.relations(entity, page=After(key, limit))
        items += list(page)
        sizes.append(len(page))
        key = page.next_after
        if key is None:
            return items, sizes


def _ids(relations) -> list[str]:
    return [r.fact.version_id for r in relations]


@pytest.mark.parametrize("limit", [1, 2, 4, 6])
def test_pages_of_relations_add_up_to_the_whole_answer_in_its_order(store, limit):
    _seed(store)
    whole = store.relations("Hub")
    assert [(r.direction, r.undated) for r in whole] == [("out", False), ("out", False), ("in", False),
                                                         ("in", False), ("out", True), ("in", True)]
    items, sizes = _all_pages(store, "Hub", limit)
    assert _ids(items) == _ids(whole) and items == list(whole)
    assert all(size == limit for size in sizes[:-1])


def test_a_page_reads_its_items_and_one_more_row(store, rows_read):
    _seed(store)
    read = rows_read("read_relations_page")
    _all_pages(store, "Hub", 4)
    assert read == [5, 2]


def test_a_relation_unsupported_at_the_point_is_passed_over_and_the_page_refilled(store, rows_read):
    _seed(store)
    premise = store.add_fact("Hub", "is", "funded", valid_from="2023-01-01", valid_to="2024-06-01")
    store.add_fact("Hub", "pays", "Vendor G", valid_from="2024-01-01", depends_on=[premise.fact_id],
                   object_is_entity=True)
    assert "pays" in [r.predicate for r in store.relations("Hub", valid_at="2024-03-01")]
    whole = store.relations("Hub", valid_at="2024-07-01")
    assert "pays" not in [r.predicate for r in whole]  # its premise no longer holds there: not served
    read = rows_read("read_relations_page")
    pages = [store.relations("Hub", valid_at="2024-07-01", page=After(None, 3))]
    assert len(pages[0]) == 3 and read == [4, 2]  # one passed over: the page read on from where it stopped
    while pages[-1].next_after is not None:
        pages.append(store.relations("Hub", valid_at="2024-07-01", page=After(pages[-1].next_after, 3)))
    assert [r for p in pages for r in p] == list(whole)


def test_an_unknown_entity_or_an_edited_key_is_refused(store):
    _seed(store)
    with pytest.raises(NotFound):
        store.relations("Nobody", page=After(None, 2))
    key = store.relations("Hub", page=After(None, 2)).next_after
    for edited in (["7"] + key[1:], key[:3], [key[0], key[1], "", key[3]], "Hub"):
        with pytest.raises(InvalidInput) as refused:
            store.relations("Hub", page=After(edited, 2))
        assert refused.value.field == "cursor"
