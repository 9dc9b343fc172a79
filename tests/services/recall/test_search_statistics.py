"""A search answer says nothing of other tenants or of what the caller may not see: Lucene's scores move with
the index's statistics (how many documents of any tenant or clearance hold a word), so the lexical path answers
its rank, never its raw score."""

from __future__ import annotations


def hits_of(store, query: str) -> list[dict]:
    return [h.model_dump(mode="json") for h in store.search(query, kinds=["fact"]).hits]


def test_another_tenants_documents_and_hidden_ones_never_change_a_search_answer(store):
    store.add_fact("Probe", "mentions", "Qwertyzapword", statement="Probe mentions Qwertyzapword",
                   sensitivity="public")
    public = store.for_tenant(store.tenant, clearance="public")
    before = hits_of(public, "Qwertyzapword")
    assert before and all(h["paths"]["lexical"]["score"] is None for h in before if "lexical" in h["paths"])
    # when another tenant, and this tenant above the caller's clearance, write the word many times
    other = store.for_tenant(store.tenant + "_other")
    other.add_facts([{"subject": f"Note {i}", "predicate": "mentions", "object": "Qwertyzapword",
                      "statement": f"Note {i} mentions Qwertyzapword twice Qwertyzapword"} for i in range(5)])
    store.add_facts([{"subject": f"Secret {i}", "predicate": "mentions", "object": "Qwertyzapword",
                      "statement": f"Secret {i} mentions Qwertyzapword", "sensitivity": "secret"} for i in range(3)])
    # then the public caller's answer is the same, to the last digit
    assert hits_of(public, "Qwertyzapword") == before
