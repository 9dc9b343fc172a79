"""A listing's page is cut in its query (issue 24 §7): the window reads one page and one more row, passes over
what is unreadable or unsupported at the point and refills from where its query stopped, so pages are never short
while more follow and add up to exactly the whole answer."""

from __future__ import annotations

import pytest

from credo.schema.facts import Window


class _Q:  # raw Cypher for the tests only: a version damaged by hand
    def __init__(self, text: str) -> None:
        self.text = text


def pages_of(store, size: int, **read) -> tuple[list, list[int]]:
    """Every item of the listing read window by window, and each window's length."""
    items, sizes, offset = [], [], 0
    while True:
        page = store.facts(**read, window=Window(offset, size))
        assert page.windowed
        items += list(page)
        sizes.append(len(page))
        if page.next_offset is None:
            return items, sizes
        offset = page.next_offset


@pytest.fixture
def listing(store, clock):
    """40 dated facts, 5 undated ones, and 6 rules resting on a premise that ended before the read's point."""
    clock.at("2025-01-01")
    store.add_facts([{"subject": f"account {i:02d}", "predicate": "owned_by", "object": f"owner {i}",
                      "valid_from": f"2024-01-{1 + i % 28:02d}"} for i in range(40)])
    store.add_facts([{"subject": f"draft {i}", "predicate": "owned_by", "object": "nobody"} for i in range(5)])
    premise = store.add_fact("API v1", "read_by", "clients", valid_from="2024-01-01", valid_to="2024-02-01")
    for i in range(6):
        store.add_fact(f"column {i}", "kept_for", "API v1", valid_from="2024-01-10", depends_on=[premise.fact_id])
    return store


@pytest.mark.parametrize("size", [1, 4, 7, 50])
def test_windows_add_up_to_the_whole_answer_and_none_is_short_while_more_follow(listing, size):
    whole = listing.facts(valid_at="2024-03-01")
    items, sizes = pages_of(listing, size, valid_at="2024-03-01")
    assert [f.version_id for f in items] == [f.version_id for f in whole]
    assert all(n == size for n in sizes[:-1]) and 0 < sizes[-1] <= size or sizes == [0]
    assert [f.undated for f in items] == sorted(f.undated for f in items)  # dated first, then undated
    # the rules whose premise ended before the point were passed over, inside the windows
    assert not any(f.subject.startswith("column") for f in items)


def test_a_window_reads_only_its_page_and_one_more_row(listing, rows_read):
    read = rows_read("read_facts_all")
    page = listing.facts(valid_at="2025-06-01", window=Window(10, 5))
    assert len(page) == 5 and page.next_offset == 15 and read == [6]


def test_an_unreadable_version_is_named_and_its_place_refilled(listing, neo4j_db):
    whole = listing.facts(valid_at="2024-03-01")
    victim = whole[3]
    neo4j_db.query(_Q("MATCH (f:Fact {version_id: $v}) SET f.confidence = 'high'"), write=True,
                   v=victim.version_id)
    page = listing.facts(valid_at="2024-03-01", window=Window(0, 5))
    assert len(page) == 5 and victim.version_id not in {f.version_id for f in page}
    assert [u.version_id for u in page.unreadable] == [victim.version_id]


def test_a_read_by_name_is_not_windowed(listing):
    named = listing.facts("account 03", window=Window(0, 1))
    assert not named.windowed and len(named) == 1
