"""One server plan per search query, whatever the filters: Neo4j keys its plan cache by the query text and the
types of its parameters (null, a string, an empty list and a list of strings are four types) and, for a list or a
string, its size bucket (0, 1, 2-10, 11-100, ...: org.neo4j.cypher.internal.util.SizeBucket). Planning the search
query costs 130-450 ms on this machine, so a search whose filters, words or names gave a parameter another type or
bucket paid that once more per combination (bench/history/journal.md, issue 11 fifth round)."""

from __future__ import annotations

import math

import pytest

from credo.graph.core import db as graph_db
from credo.graph.recall import search as search_repo
from credo.services.adapters.embeddings import default_embedder
from credo.store import Store


def bucket(size: int) -> int:
    """Neo4j's size bucket: exact for 0 and 1, else the next power of ten."""
    return size if size <= 1 else 10 ** math.ceil(math.log10(size))


def cypher_type(value) -> str:
    """The type Neo4j gives a parameter value, with its size bucket for a list or a string (what its plan cache is
    keyed by, beside the text)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "BOOLEAN"
    if isinstance(value, int):
        return "INTEGER"
    if isinstance(value, float):
        return "FLOAT"
    if isinstance(value, str):
        return f"STRING[{bucket(len(value))}]"
    if isinstance(value, dict):
        return "MAP"
    if isinstance(value, list):
        inner = {cypher_type(v) for v in value}
        inner = {t.partition("[")[0] for t in inner}
        return f"LIST<{inner.pop() if len(inner) == 1 else 'ANY' if inner else 'NOTHING'}>[{bucket(len(value))}]"
    return type(value).__name__


@pytest.fixture
def signatures(monkeypatch) -> dict[str, set[tuple]]:
    """The parameter types of every search query run, by query name and path kind (side thread or vector call)."""
    seen: dict[str, set[tuple]] = {}
    rows = graph_db.Tx.rows

    def spy(self, query, **params):
        if query in (search_repo.SEARCH_FACTS, search_repo.SEARCH_LOOKUPS):
            kind = query.name + ("/vector" if params.get("cuts", {}).get("vector") else "")
            sent = self.parameters(query, params)  # as sent: the caller's clearance ($levels) included
            seen.setdefault(kind, set()).add(tuple(sorted((k, cypher_type(v)) for k, v in sent.items())))
        return rows(self, query, **params)

    monkeypatch.setattr(graph_db.Tx, "rows", spy)
    return seen


def test_searches_with_and_without_filters_send_each_query_with_the_same_parameter_types(
        neo4j_db, tenant, clock, signatures):
    # given a tenant with facts about a named entity, searched with the embedder on
    store = Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)
    store.add_facts([{"subject": "Dana", "predicate": "drinks", "object": "oolong tea", "scope": {"team": "ops"}},
                     {"subject": "Eli", "predicate": "likes", "object": "cold brew", "sensitivity": "internal"}])
    # when it is searched with every filter off, with each on, with words naming no entity and no predicate
    store.search("what does Dana drink")
    store.search("what does Dana drink", scope={"team": "ops"})
    store.search("what does Dana drink", kinds=["semantic"])
    store.for_tenant(store.tenant, clearance="public").search("what does Dana drink")
    store.search("what does Dana drink", valid_at="2020-01-01", known_at="2030-01-01", states=["active"])
    store.search("tea")
    store.search("!!!")  # no word: no lexical path
    store.search("who in the operations team drinks oolong tea or green tea or cold brew every single morning "
                 "before the stand-up meeting starts, and who brings the biscuits on fridays")
    # then each query went out with one set of parameter types (one plan each on the server)
    assert signatures, "no search query was run"
    for name, found in signatures.items():
        assert len(found) == 1, f"{name} was sent with {len(found)} parameter type signatures: " + "; ".join(
            ", ".join(f"{k}={t}" for k, t in sig if any(t != dict(o)[k] for o in found)) for sig in found)
