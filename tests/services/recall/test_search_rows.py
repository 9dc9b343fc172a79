"""How much a search decodes: the vector path (the one query after the embedding) hands over its full versions only
for the ranks that fusion can serve; the rest of its candidates travel as keys (issue 11, latency, fourth round)."""

from __future__ import annotations

import pytest

from credo.graph.core import db as graph_db
from credo.graph.recall import search as search_repo
from credo.schema.commands import build
from credo.schema.commands_search import SearchQuery
from credo.services.recall import search as search_service
from credo.services.adapters.embeddings import default_embedder
from credo.store import Store


@pytest.fixture
def estore(neo4j_db, tenant, clock) -> Store:
    """The test's store with the default embedder (the vector path is on)."""
    return Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)


def _vector_rows(monkeypatch) -> list[list[dict]]:
    """Record the vector path's rows of every fact query (a spy on the real driver call)."""
    seen: list[list[dict]] = []
    rows = graph_db.Tx.rows

    def spy(self, query, **params):
        found = rows(self, query, **params)
        if query is search_repo.SEARCH_FACTS and params["cuts"]["vector"] > 0:
            seen.append([r for r in found if r["path"] == "vector"])
        return found

    monkeypatch.setattr(graph_db.Tx, "rows", spy)
    return seen


def _key(hit) -> tuple:
    return hit.kind, hit.id, hit.version_id, hit.text, {p: s.rank for p, s in hit.paths.items()}


def test_the_vector_path_decodes_full_versions_only_for_the_ranks_a_search_can_serve(estore, monkeypatch):
    # given 30 facts about drinks, all valid now
    estore.define_predicate("drinks", cardinality="multi")
    estore.add_facts([{"subject": f"Person {i}", "predicate": "drinks", "object": f"drink {i}",
                       "statement": f"Person {i} drinks a {d} every morning"}
                      for i, d in enumerate(["coffee", "tea", "cocoa", "espresso", "latte", "mocha"] * 5)])
    wide = estore.search("what do people drink in the morning", kinds=["fact"], limit=10).hits
    seen = _vector_rows(monkeypatch)
    # when the tenant asks for the 3 best
    hits = estore.search("what do people drink in the morning", kinds=["fact"], limit=3).hits
    # then the vector path handed over 20 candidates (the pool) but full versions for its 3 best only, and the
    # hits are the first 3 of the same question asked for 10 (fusion of the same candidates)
    (vector,) = seen
    assert len(vector) == 20
    assert [r["rank"] for r in vector if r["fact"] is not None] == [1, 2, 3]
    assert all(r["fact"] is None and r["found"]["version_id"] for r in vector if r["rank"] > 3)
    assert [_key(h) for h in hits] == [_key(h) for h in wide[:3]]
    assert all(h.fact is not None and h.fact.statement == h.text for h in hits)


def test_a_candidate_that_moves_up_when_better_ones_are_unsupported_is_served_in_full(estore, monkeypatch):
    # given rules nearest the question that rest on a premise which ended in 2025, and other facts further away
    premise = estore.add_fact("Legacy API", "serves", "v1 clients", statement="The legacy API serves v1 clients",
                              valid_from="2024-01-01", valid_to="2025-01-01")
    for i in range(3):
        estore.add_fact(f"Rule {i}", "requires", "coffee", valid_from="2024-01-01", depends_on=[premise.fact_id],
                        statement=f"Rule {i}: the team drinks coffee every morning")
    for i, d in enumerate(["tea", "cocoa", "espresso", "latte"]):
        estore.add_fact(f"Person {i}", "drinks", d, valid_from="2024-01-01",
                        statement=f"Person {i} drinks {d} in the afternoon")
    seen = _vector_rows(monkeypatch)
    # when the vector path alone is asked for the 2 best in mid-2025 (the rules are unsupported then)
    cmd = build(SearchQuery, query="the team drinks coffee every morning", kinds=["fact"], limit=2,
                valid_at="2025-06-01")
    hits = search_service.search(estore._ctx, cmd, paths=frozenset({"vector"})).hits
    # then the 2 hits are served in full and no rule is among them: the first read gave full versions for its 2 best
    # (the rules), so the path was read again in full
    assert len(hits) == 2 and all(h.fact is not None and h.fact.statement == h.text for h in hits)
    assert not any(h.text.startswith("Rule") for h in hits)
    assert len(seen) == 2 and [r["rank"] for r in seen[0] if r["fact"] is not None] == [1, 2]
    assert all(r["fact"] is not None for r in seen[1])
