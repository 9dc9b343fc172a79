"""How much a search reads: a path is cut to its best candidates, and a short path is widened alone."""

from __future__ import annotations

from credo.graph.core import db as graph_db
from credo.graph.recall import search as search_repo
from credo.schema.commands import build
from credo.schema.commands_search import SearchQuery
from credo.services.recall import search as search_service


def _fact_queries(monkeypatch) -> list[dict]:
    """Record the cuts of every fact query a search runs (a spy on the real driver call, not a stand-in)."""
    seen: list[dict] = []
    rows = graph_db.Tx.rows

    def spy(self, query, **params):
        if query is search_repo.SEARCH_FACTS:
            seen.append(dict(params["cuts"]))
        elif query is search_repo.SEARCH_LOOKUPS and params["cut"] > 0:  # the lexical path beside entities
            seen.append({"lexical": params["cut"], "vector": 0, "graph": 0})
        return rows(self, query, **params)

    monkeypatch.setattr(graph_db.Tx, "rows", spy)
    return seen


def test_a_hub_entitys_ended_history_never_uses_up_the_graph_paths_candidates(store, monkeypatch):
    # given an entity touched by 120 versions that ended in 2020 and one valid now (statements not naming it)
    store.define_predicate("signed", cardinality="multi")
    store.add_facts([{"subject": "Acme", "predicate": "signed", "object": f"contract {i}", "valid_from": "2019-01-01",
                      "valid_to": "2020-01-01", "statement": f"contract {i} was signed"} for i in range(120)])
    store.add_fact("Acme", "signed", "contract 999", statement="contract 999 was signed", valid_from="2024-01-01")
    seen = _fact_queries(monkeypatch)
    # when the graph path alone is asked about the entity now
    cmd = build(SearchQuery, query="Acme", kinds=["fact"], limit=5)
    hits = search_service.search(store._ctx, cmd, paths=frozenset({"graph"})).hits
    # then the one valid version is served, found by one fact query (no widened re-query)
    assert [h.text for h in hits] == ["contract 999 was signed"]
    assert len(seen) == 1


def test_a_short_path_is_widened_alone_and_still_never_lets_hidden_versions_take_the_slots(store, monkeypatch):
    # given 120 ended facts whose statements match a word, and one valid fact matching it
    store.define_predicate("serves", cardinality="multi")
    store.add_facts([{"subject": f"Cafe {i}", "predicate": "serves", "object": f"espresso {i}",
                      "valid_from": "2019-01-01", "valid_to": "2020-01-01",
                      "statement": f"Cafe {i} serves ristretto"} for i in range(120)])
    store.add_fact("Maria", "drinks", "ristretto", statement="Maria drinks a ristretto at nine", valid_from="2024-01-01")
    seen = _fact_queries(monkeypatch)
    # when the tenant searches for the word
    cmd = build(SearchQuery, query="ristretto", kinds=["fact"], limit=3)
    hits = search_service.search(store._ctx, cmd).hits
    # then the valid fact is served alone, and the re-query read only the lexical path, wider (once: it goes on
    # from the first cut's density)
    assert [h.text for h in hits] == ["Maria drinks a ristretto at nine"]
    lexical = [cuts for cuts in seen if cuts["lexical"]]
    assert len(lexical) == 2 and lexical[1]["lexical"] > lexical[0]["lexical"]
    assert lexical[1]["graph"] == lexical[1]["vector"] == 0


def test_a_question_whose_nearest_versions_are_mostly_history_is_answered_by_one_vector_query(neo4j_db, tenant, clock,
                                                                                           monkeypatch):
    # given a tenant with 60 ended facts nearest the question, 15 valid ones further away (the shape of YAGO's
    # "playsFor <club>" questions): the vector index's filter skips the history inside its search
    from credo.services.adapters.embeddings import default_embedder
    from credo.store import Store

    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)
    store.define_predicate("serves", cardinality="multi")
    store.add_facts([{"subject": f"Cafe {i}", "predicate": "serves", "object": f"ristretto {i}",
                      "valid_from": "2019-01-01", "valid_to": "2020-01-01",
                      "statement": f"Cafe {i} serves a ristretto"} for i in range(60)]
                    + [{"subject": f"Bar {i}", "predicate": "serves", "object": f"tea {i}", "valid_from": "2024-01-01",
                        "statement": f"Bar {i} pours green tea"} for i in range(15)])
    seen = _fact_queries(monkeypatch)
    # when the vector path alone is asked now
    cmd = build(SearchQuery, query="a ristretto at a cafe", kinds=["fact"], limit=10)
    hits = search_service.search(store._ctx, cmd, paths=frozenset({"vector"})).hits
    # then ten valid versions are served, found by one vector query (its first cut reached past the history)
    assert len(hits) == 10 and all(h.text.endswith("green tea") for h in hits)
    assert len([cuts for cuts in seen if cuts["vector"]]) == 1
