"""Search reads: the fact paths in one query (any subset of them); entities, summaries and the lexical path by full
text in one query (tenant-scoped indexes).

Tenant isolation at the index level: the full-text indexes index `tenant` too, so each Lucene query carries the
tenant as a required clause; the vector path asks the one `fact_search` vector index with a filter it applies inside
its search (Cypher 25 SEARCH ... WHERE: tenant, known and valid interval, sensitivity rank), so another tenant's
vectors never take a place of the top k, and a small tenant's search is neither slower nor emptier beside a large one.
"""

from __future__ import annotations

from datetime import datetime

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import FAR_FUTURE, fact_from_row
from credo.graph.truth.summaries import summary_from_row
from credo.graph.core.vectors import Listed
from credo.schema.cascade import Summary
from credo.schema.entities import Entity
from credo.schema.facts import Fact
from credo.schema.search import SEARCH_PATHS, FoundVersion, clearance_rank, epoch_ms

SEARCH_FACTS = load("search_facts")
SEARCH_LOOKUPS = load("search_lookups")
# widening stops here: past it a Lucene match scores too low to matter, and reading more would make one tenant's
# deep history the cost of every search (the cap bounds only how deep a path looks, never what it may serve)
MAX_CANDIDATES = 12_800
PATHS = SEARCH_PATHS
# each path's first cut (at least twice the pool). The vector index filters tenant, known and valid interval and
# clearance inside its search, so its top k holds no history nor another tenant's versions (the 80 of the partition
# era, when ended neighbours used up a first k of 50 on YAGO, is gone); k also sets how wide HNSW searches.
# measured: bench/bench_vector_cut.py on Neo4j 2026.08.1 (2026-12-04, load 2-3): recall@10 against the exact top 10
# of a filtered top 40 / top 80: 0.9993 / 1.0000 (1,000 facts, add_facts), 0.9980 / 0.9987 (YAGO, 8,758 versions
# now); search hits the same for 148 and 149 of 150 questions, none widened more; the SEARCH 4.1 / 5.2 ms and
# 9.1 / 12.2 ms p50. bench/bench_search.py --big 10000 --mid 3000 --small 1000 --vector-cut 80|40, twelve pairs
# (load 0.2-1.8): search p50 over its floor 1.50x against 1.61x
FIRST_CUT = {"lexical": 50, "vector": 40, "graph": 50}


def facts(
    tx: Tx, tenant: str, *, lucene: str | None, vector: list[float] | None, entity_ids: list[str], words: list[str],
    valid_at: datetime, known_at: datetime | None,
    states: list[str], kinds: list[str] | None, scope_key: str | None, pool: int,
    need: int, paths: frozenset[str] = frozenset(PATHS), full: int | None = None, vector_floor: float = -1.0,
    first: int | None = None,
) -> tuple[dict[str, list[tuple[Fact | FoundVersion, float]]], set[str], set[str]]:
    """Per path ('lexical', 'vector', 'graph'; only those in `paths` are read), the filtered versions best first
    with the path's score; the fact ids whose found version rests on premises; and the version ids of the found
    versions with a source linked (only those can be weak). Each path's `full` best (default:
    all `pool`) are read as `Fact`s, the rest as `FoundVersion` keys; the vector path keeps only candidates whose
    cosine reaches `vector_floor` (raw cosine, -1 keeps all).

    Each path hands over its best candidates (its cut) before the filter runs (so the filter and the state read
    cost a bounded number of rows, however large the tenant); while a path that was cut ran out of visible
    candidates before `need` (the caller's limit), the query runs again for that path alone with more (`wider`:
    only the tenant's own versions the index's filter cannot judge — state, kind, scope — can use them up, never
    another tenant's), so nothing filtered takes a slot of the top `need`. `first` replaces the first cut of the
    paths asked (a path `lookups` read at its first cut and found short goes on here from its wider cut)."""
    # HNSW and Lucene cost grows with k: start near the pool (FIRST_CUT), widen when short (a vector start of 1.5 x
    # the pool was cheaper per query but doubled YAGO's re-queries: bench/history/journal.md)
    cuts = {path: (first or max(pool * 2, FIRST_CUT[path])) if path in paths else 0 for path in PATHS}
    if lucene is None:
        cuts["lexical"] = 0
    kept: list[dict] = []  # the rows of paths that need no wider cut
    while True:
        # each parameter has one type and size bucket whatever the search asks (one server plan: see LIST_SIZE)
        rows = tx.rows(
            SEARCH_FACTS, tenant=tenant, lucene=sized_text(lucene), vector=None if vector is None else Listed(vector),
            vector_cut=cuts["vector"], known_key=epoch_ms(known_at or FAR_FUTURE), valid_key=epoch_ms(valid_at),
            rank=clearance_rank(tx.levels), cuts=cuts,
            vector_floor=float((1.0 + vector_floor) / 2.0),  # Neo4j scores cosine as (1 + cosine) / 2
            entity_ids=sized_list(entity_ids), words=sized_list(words), valid_at=valid_at.isoformat(),
            known_at=(known_at or FAR_FUTURE).isoformat(), states=sized_list(states), any_kind=kinds is None,
            kinds=sized_list(kinds), any_scope=scope_key is None, scope_key=sized_text(scope_key),
            pool=pool,
            full={p: pool if full is None else full for p in PATHS},
        )
        # every path hands over at most its cut: one that did may have more visible ones behind the cut; only such
        # a path runs again (wider), the others' rows are kept
        visible = {p: sum(1 for x in rows if x["path"] == p and (x["fact"] or x["found"]) is not None) for p in PATHS}
        short = {r["path"] for r in rows if r["raw"] >= cuts[r["path"]] and visible[r["path"]] < need
                 and cuts[r["path"]] < MAX_CANDIDATES}
        if not short:
            rows = kept + rows
            break
        kept += [r for r in rows if r["path"] not in short]
        cuts = {p: wider(cuts[p], visible[p], need) if p in short else 0 for p in PATHS}
    return _found(rows)


def _found(rows: list[dict]) -> tuple[dict[str, list[tuple[Fact | FoundVersion, float]]], set[str], set[str]]:
    """search_facts' rows (or search_lookups' fact rows) as facts' answer: per path best first, premised, sourced."""
    out: dict[str, list[tuple[Fact | FoundVersion, float]]] = {"lexical": [], "vector": [], "graph": []}
    premised: set[str] = set()
    sourced: set[str] = set()
    for r in sorted((r for r in rows if (r["fact"] or r["found"]) is not None), key=lambda r: (r["path"], r["rank"])):
        fact = fact_from_row(r["fact"]) if r["fact"] is not None else FoundVersion(**r["found"])
        if getattr(fact, "unreadable", None) is None:  # an unreadable stored version is never served
            out[r["path"]].append((fact, float(r["score"])))
            if r["premised"]:
                premised.add(fact.fact_id)
            if r["sourced"]:
                sourced.add(fact.version_id)
    return out, premised, sourced


# Neo4j keys its plan cache by the query text and each parameter's type and, for a list or a string, its size
# bucket (0, 1, then the next power of ten: 2-10, 11-100, 101-1,000 ...; org.neo4j.cypher.internal.util.SizeBucket).
# Planning search_facts costs 130-450 ms on this machine, so every new (type, bucket) combination a search's filters,
# words and names gave planned it again (tests/services/recall/test_search_plans.py, bench/history/journal.md): lists
# are padded to LIST_SIZE entries (the bucket 11-100) and texts to TEXT_SIZE characters (101-1,000).
# measured: bench/audit_tricks.py --parts plans on Neo4j 2026.08.1 (2026-12-03, load 14): six searches of different
# word, name and text sizes after db.clearQueryCaches() 3.3 s padded, 12.5 s not (3.7x); planned, 114 / 118 ms
LIST_SIZE, TEXT_SIZE = 11, 101


def sized_list(values: list[str] | None) -> list[str]:
    """A list parameter never empty, null or in a small size bucket: padded with '' (no id, word, kind, state or
    label is the empty string) to LIST_SIZE entries."""
    values = list(values or ())
    return values + [""] * (LIST_SIZE - len(values))


def sized_text(value: str | None) -> str:
    """A text parameter never null nor in a small size bucket: padded with trailing spaces (which a Lucene query
    ignores, and a query comparing it trims) to TEXT_SIZE characters."""
    value = value or ""
    return value + " " * (TEXT_SIZE - len(value))


def wider(cut: int, visible: int, need: int) -> int:
    """The next cut of a path whose `cut` candidates held only `visible` (< `need`) visible ones: twice what the
    density seen so far says `need` takes (a second widening is rare, a k far too large costs every path's work),
    at least twice and at most eight times the cut, never past MAX_CANDIDATES."""
    if visible <= 0:
        return min(cut * 8, MAX_CANDIDATES)
    return min(max(2 * cut, -(-2 * cut * need // visible)), 8 * cut, MAX_CANDIDATES)


def lookups(
    tx: Tx, tenant: str, *, entity_lucene: str | None, summary_lucene: str | None, lucene: str | None,
    valid_at: datetime, known_at: datetime | None, states: list[str], kinds: list[str] | None,
    scope_key: str | None, pool: int, need: int,
) -> tuple[list[tuple[Entity, str, float]], list[tuple[Summary, float]],
           tuple[dict[str, list[tuple[Fact | FoundVersion, float]]], set[str], set[str]]]:
    """In one round trip: (entity with merged ids, normalised name, score) of the tenant's canonical entities
    matching `entity_lucene`, (summary, score) of its summaries matching `summary_lucene` (filtered by state, known
    time and clearance), each best first (a None query skips its look-up), and `facts`' answer for the lexical path
    alone (`lucene` None: none; the same rows either way: a lexical path whose first cut ran out of visible
    candidates goes on in `facts` from the cut it widens to)."""
    cut = max(pool * 2, FIRST_CUT["lexical"]) if lucene is not None else 0
    rows = tx.rows(SEARCH_LOOKUPS, tenant=tenant, entity_lucene=sized_text(entity_lucene),
                   summary_lucene=sized_text(summary_lucene), lucene=sized_text(lucene), cut=cut,
                   valid_at=valid_at.isoformat(), known_at=(known_at or FAR_FUTURE).isoformat(),
                   states=sized_list(states), any_kind=kinds is None, kinds=sized_list(kinds),
                   any_scope=scope_key is None, scope_key=sized_text(scope_key), pool=pool, full=pool)
    found = [(Entity(entity_id=e["entity_id"], name=e["name"], kind=e["kind"], aliases=e["aliases"] or [],
                     ids=e["ids"]), e["norm"], float(r["score"])) for r in rows if (e := r["entity"]) is not None]
    summaries = [(summary_from_row(r["summary"], r["trace"]), float(r["score"])) for r in rows
                 if r["summary"] is not None]
    lexical = [{**r, "path": "lexical"} for r in rows if r["kind"] == "fact"]
    visible = sum(1 for r in lexical if (r["fact"] or r["found"]) is not None)
    if cut and any(r["raw"] >= cut for r in lexical) and visible < need and cut < MAX_CANDIDATES:
        return found, summaries, facts(tx, tenant, lucene=lucene, vector=None, entity_ids=[], words=[],
                                       valid_at=valid_at, known_at=known_at, states=states, kinds=kinds,
                                       scope_key=scope_key, pool=pool, need=need, paths=frozenset({"lexical"}),
                                       first=wider(cut, visible, need))
    return found, summaries, _found(lexical)
