"""The stale queue (facts awaiting re-verification, summaries awaiting a rebuild) is cut in its query by key: pages
add up to the whole queue, oldest first, each item once."""

from __future__ import annotations

from credo.schema.pages import After


def stale_queue(store, clock):
    """Six rules resting on one premise (written in one batch: one known time) and three summaries of it, all made
    stale by the premise's retraction."""
    clock.at("2025-01-01")
    premise = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_facts([{"subject": f"rule {i}", "predicate": "is", "object": "rule", "statement": f"rule {i}",
                      "valid_from": "2025-01-01", "depends_on": [premise.fact_id]} for i in range(6)])
    clock.at("2025-01-02")
    for i in range(3):
        store.add_summary(f"notes {i}", derived_from=[premise.fact_id])
    clock.at("2025-02-01")
    store.retract_fact(premise.fact_id, reason="it was wrong")


def test_the_whole_stale_queue_is_oldest_first_then_by_kind_and_id(store, clock):
    stale_queue(store, clock)
    whole = store.stale()
    assert [i.kind for i in whole] == ["fact"] * 6 + ["summary"] * 3
    assert whole == sorted(whole, key=lambda i: (i.since, i.kind, i.id))


def test_pages_of_the_stale_queue_add_up_to_it_each_read_in_its_query(store, clock, monkeypatch):
    from credo.graph.core import db as db_module

    stale_queue(store, clock)
    whole = store.stale()
    read: list[dict] = []
    real = db_module.Tx.rows

    def counting(self, query, **params):
        rows = real(self, query, **params)
        if getattr(query, "name", "") == "read_stale":
            read.append({"after": params["after"], "limit": params["limit"], "rows": len(rows)})
        return rows

    monkeypatch.setattr(db_module.Tx, "rows", counting)
    first = store.stale(page=After(None, 2))
    assert first == whole[:2] and first.next_after == [whole[1].since.isoformat(), "fact", whole[1].id,
                                                       whole[1].version_id]
    assert read == [{"after": None, "limit": 3, "rows": 3}]  # the query was given the limit: two and one more
    seen, after = list(first), first.next_after
    while after is not None:
        page = store.stale(page=After(after, 4))
        seen += page
        after = page.next_after
    # a page boundary falls between two rules of one known time: the key's id keeps each item once, in order
    assert seen == whole and [r["rows"] for r in read] == [3, 5, 3]
