"""Search reads: the three fact paths in one query, entities and summaries by full text (tenant-scoped indexes).

Tenant isolation at the index level: the full-text indexes index `tenant` too, so each Lucene query carries the
tenant as a required clause; the vector path scans the tenant's own versions exactly (small tenants) or queries
the tenant's own vector index when it has one (`graph/search_partition.py`). Neither ever walks another tenant's
vectors, so a small tenant's search is neither slower nor emptier beside a large one.
"""

from __future__ import annotations

from datetime import datetime


from credo.cypher import load
from credo.graph.db import Tx
from credo.graph.records import FAR_FUTURE, fact_from_row
from credo.graph.summaries import summary_from_row
from credo.graph.vectors import Vector
from credo.schema.cascade import Summary
from credo.schema.entities import Entity
from credo.schema.facts import Fact

SEARCH_FACTS = load("search_facts")
SEARCH_ENTITIES = load("search_entities")
SEARCH_SUMMARIES = load("search_summaries")
# widening stops here: past it a Lucene match scores too low to matter, and reading more would make one tenant's
# deep history the cost of every search (the cap bounds only how deep a path looks, never what it may serve)
MAX_CANDIDATES = 12_800


def facts(
    tx: Tx, tenant: str, *, lucene: str | None, vector: list[float] | None, vector_index: str | None,
    entity_ids: list[str], words: list[str], valid_at: datetime, known_at: datetime | None, states: list[str],
    kinds: list[str] | None, scope_key: str | None, levels: list[str] | None, unlabelled: bool, pool: int,
    need: int,
) -> tuple[dict[str, list[tuple[Fact, float]]], set[str]]:
    """Per path ('lexical', 'vector', 'graph'), the filtered versions best first with the path's score; and the
    version ids that rest on premises.

    Each path hands over its best `candidates` before the filter runs (so the filter and the state read cost a
    bounded number of rows, however large the tenant); while a path that was cut ran out of visible candidates
    before `need` (the caller's limit), the query runs again with eight times as many (only the tenant's own
    filtered-out versions can use them up, never another tenant's), so nothing filtered takes a slot of the top
    `need`."""
    candidates = max(pool * 4, 200)
    while True:
        rows = tx.rows(
            SEARCH_FACTS, tenant=tenant, lucene=lucene, vector=None if vector is None else Vector(vector),
            vector_index=vector_index, candidates=candidates, entity_ids=entity_ids, words=words,
            valid_at=valid_at.isoformat(), known_at=(known_at or FAR_FUTURE).isoformat(), states=states,
            kinds=kinds, scope_key=scope_key, levels=levels, unlabelled=unlabelled, pool=pool,
        )
        # every path hands over at most `candidates`: one that did may have more visible ones behind the cut
        short = [r for r in rows if r["raw"] >= candidates
                 and sum(1 for x in rows if x["path"] == r["path"] and x["fact"] is not None) < need]
        if not short or candidates >= MAX_CANDIDATES:
            break
        candidates = min(candidates * 8, MAX_CANDIDATES)
    out: dict[str, list[tuple[Fact, float]]] = {"lexical": [], "vector": [], "graph": []}
    premised: set[str] = set()
    for r in sorted((r for r in rows if r["fact"] is not None), key=lambda r: (r["path"], r["rank"])):
        fact = fact_from_row(r["fact"])
        if fact.unreadable is None:  # an unreadable stored version is never served
            out[r["path"]].append((fact, float(r["score"])))
            if r["premised"]:
                premised.add(fact.fact_id)
    return out, premised


def entities(tx: Tx, tenant: str, *, lucene: str, pool: int) -> list[tuple[Entity, str, float]]:
    """(entity with merged ids, normalised name, score) of the tenant's canonical entities matching, best first."""
    rows = tx.rows(SEARCH_ENTITIES, tenant=tenant, lucene=lucene, pool=pool)
    return [(Entity(entity_id=r["entity_id"], name=r["name"], kind=r["kind"], aliases=r["aliases"] or [],
                    ids=r["ids"]), r["norm"], float(r["score"])) for r in rows]


def summaries(
    tx: Tx, tenant: str, *, lucene: str, known_at: datetime | None, states: list[str], levels: list[str] | None,
    unlabelled: bool, pool: int,
) -> list[tuple[Summary, float]]:
    """(summary, score) of the tenant's summaries matching, filtered by state, known time and clearance."""
    rows = tx.rows(SEARCH_SUMMARIES, tenant=tenant, lucene=lucene, known_at=(known_at or FAR_FUTURE).isoformat(),
                   states=states, levels=levels, unlabelled=unlabelled, pool=pool)
    return [(summary_from_row(r["summary"], r["trace"]), float(r["score"])) for r in rows]


