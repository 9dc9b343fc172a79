"""Search: one question in natural language, answered from facts, entities and summaries.

Three paths find candidates — full text (Lucene), the vector index (the query's embedding) and the graph
neighbourhood of the entities the query names — and reciprocal-rank fusion (`search_rules.fuse`) orders them.
Filters come before ranking (DESIGN §8): tenant, clearance vs `sensitivity` (the caller's, from its Context: every
query's `$levels`), scope, served states, validity on both axes are applied inside each path's query, so a
filtered-out version never takes a slot of the top `limit`.

Tenant isolation at the index level: the indexes are shared by tenants. The full-text indexes also index `tenant`,
and every Lucene query requires the tenant's phrase, so Lucene intersects with the tenant's postings and never walks
another tenant's matches. The one vector index (`fact_search`) filters inside its search (Cypher 25 SEARCH ... WHERE)
on the tenant, the known and valid intervals and a sensitivity rank, so another tenant's vectors never take a place
of its top k; what it cannot filter (the state at a known time, kinds, scope) is filtered right after, widening while
short (graph/recall/search.py). See README "Search".

Latency: only the vector path needs the query's embedding, so entities, summaries and the lexical path (one query),
then the graph path (only when the question names an entity), are read on a second connection while the question is
embedded; the vector path's query follows the embedding. Each path's result does not depend on which query read it
(per-path cuts, filters and widening).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from credo.graph.recall import search as search_repo
from credo.graph.core.db import Tx
from credo.schema import commands_search as cs
from credo.schema.errors import InvalidInput
from credo.schema.facts import Fact, scope_key
from credo.schema.lifecycle import State
from credo.schema.names import check_scope, clean_name
from credo.schema.search import SEARCH_PATHS, FoundVersion, PathScore, SearchHit, SearchResult
from credo.services.recall import receipts
from credo.services.recall import search_rules as rules
from credo.services.core.context import Context
from credo.services.facts.evidence import weak_versions
from credo.services.facts.evidence_rules import may_be_weak
from credo.services.facts.read import points, states_filter
from credo.services.core.support import served_at

# measured: bench/audit_tricks.py --parts lookups on Neo4j 2026.08.1 (2026-12-03, load 9): 30 searches 1.58 s with
# the look-ups beside the embedding, 1.94 s with them first in the caller's thread (1.23x)
_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="credo-search")  # look-ups beside the embedding
FACT_FIELDS = ("statement", "quote")
ENTITY_FIELDS = ("name", "aliases_text")
SUMMARY_FIELDS = ("topic", "text")
PATHS = SEARCH_PATHS


def search(ctx: Context, cmd: cs.SearchQuery, *, paths: frozenset[str] | None = None) -> SearchResult:
    """The `limit` best hits for `query` among what the caller may be served at (valid_at, known_at); `paths`
    (internal, for the ablation harness) keeps only some of 'lexical', 'vector', 'graph'. Given a `task`, the fact
    versions served are recorded as a read receipt (services/recall/receipts.py) in one write after the read."""
    query, valid_at, known_at, scope, kinds = cmd.query, cmd.valid_at, cmd.known_at, cmd.scope, cmd.kinds
    states, limit, task = cmd.states, cmd.limit, cmd.task
    text = query.strip() if isinstance(query, str) else ""
    if not text:
        raise InvalidInput("query", "must not be empty")
    task = None if task is None else clean_name(task, "task")  # refused before anything is read
    if not 1 <= limit <= 200:
        raise InvalidInput("limit", "must be between 1 and 200")
    try:
        hit_kinds, memory_kinds = rules.split_kinds(kinds)
    except ValueError as exc:
        raise InvalidInput("kinds", f"{exc}; kinds are {list(rules.HIT_KINDS + rules.MEMORY_KINDS)}") from None
    scope = None if scope is None else check_scope(scope)
    valid, known = points(ctx, valid_at, known_at)
    wanted = states_filter(states) if ctx.governance.served_filter else [s.value for s in State]
    # entities and summaries have no scope and no valid time: a scoped or past-valid-time search is about facts
    if scope is not None or memory_kinds is not None:
        hit_kinds = hit_kinds & {"fact"}
    with_summaries = "summary" in hit_kinds and valid_at is None
    pool = min(max(2 * limit, 20), 400)
    use = frozenset(PATHS if paths is None else paths)
    summary_q = rules.lucene(text, SUMMARY_FIELDS, ctx.tenant) if with_summaries else None

    fact_args = dict(valid_at=valid, known_at=known, states=wanted, kinds=memory_kinds,
                     scope_key=None if scope is None else scope_key(scope), pool=pool, need=limit)
    with_vector = "fact" in hit_kinds and "vector" in use and ctx.embedder is not None
    # measured: bench/bench_search.py --big 10000 --mid 3000 --small 1000 on Neo4j 2026.08.1 (2026-12-04, load
    # 1.2-2.4, five alternated pairs): p50 over its floor 1.59x against 1.70x with entities + summaries, then lexical +
    # graph (two queries); CPU per search -0.3 to -0.5 ms client, -0.5 to -0.9 ms server (bench/compare_search_hits.py)
    def lookups(tx: Tx) -> tuple[list[Any], list[Any], dict[str, list[tuple[Fact, float]]], set[str], set[str]]:
        # what needs no embedding: entities, summaries and the lexical path in one query, then the graph path only
        # when the question names an entity (it finds nothing otherwise)
        lexical = "fact" in hit_kinds and "lexical" in use
        entities, summaries, (by_path, premised, sourced) = search_repo.lookups(
            tx, ctx.tenant, entity_lucene=rules.lucene(text, ENTITY_FIELDS, ctx.tenant), summary_lucene=summary_q,
            lucene=rules.lucene(text, FACT_FIELDS, ctx.tenant) if lexical else None, valid_at=valid,
            known_at=known, states=wanted, kinds=memory_kinds, scope_key=fact_args["scope_key"], pool=pool,
            need=limit)
        mentioned = [e for e, norm, _ in entities if rules.named(text, norm)]
        if "fact" in hit_kinds and "graph" in use and mentioned:
            graph, graph_premised, graph_sourced = search_repo.facts(
                tx, ctx.tenant, lucene=None, vector=None, entity_ids=sorted({i for e in mentioned for i in e.ids}),
                words=rules.predicate_words(text), paths=frozenset({"graph"}), **fact_args)
            by_path = {**by_path, "graph": graph["graph"]}
            premised |= graph_premised
            sourced |= graph_sourced
        return entities, summaries, by_path, premised, sourced

    vector: list[float] | None = None

    def read_vector(full: int | None
                    ) -> tuple[dict[str, list[tuple[Fact | FoundVersion, float]]], set[str], set[str]]:
        # the vector path after the embedding; only its `full` best are read as whole versions
        return ctx.read(lambda tx: search_repo.facts(
            tx, ctx.tenant, lucene=None, vector=vector, entity_ids=[], words=[], paths=frozenset({"vector"}), full=full,
            vector_floor=rules.vector_floor(text), **fact_args))

    by_path: dict[str, list[tuple[Fact | FoundVersion, float]]] = {}
    premised: set[str] = set()
    sourced: set[str] = set()  # versions with a source linked: only those can be weak
    if with_vector:
        # the vector path alone waits for the embedding; the rest is read meanwhile (an index call of its own)
        pending = _LOOKUPS.submit(ctx.read, lookups)
        vector = ctx.embed([text]).get(text)
        if vector is not None:
            by_path, premised, sourced = read_vector(limit)
        found_entities, found_summaries, side, side_premised, side_sourced = pending.result()
        by_path = {"lexical": side.get("lexical", []), "vector": by_path.get("vector", []), "graph": side.get("graph", [])}
        premised |= side_premised
        sourced |= side_sourced
    else:
        found_entities, found_summaries, by_path, premised, sourced = ctx.read(lookups)

    def work(tx: Tx | None) -> SearchResult | None:
        rankings: dict[str, list[tuple[str, float]]] = {}
        items: dict[str, dict[str, Any] | None] = {}  # None: found only as keys (beyond the vector path's full ranks)
        if "fact" in hit_kinds:
            supported = (_supported(tx, ctx.tenant, by_path, valid, known, premised) if ctx.governance.served_filter
                         else {f.version_id for ranked in by_path.values() for f, _ in ranked})
            for path, ranked in by_path.items():
                rankings[path] = []
                for fact, score in ranked:
                    if fact.version_id in supported:
                        key = f"fact:{fact.version_id}"
                        if isinstance(fact, Fact):
                            items[key] = {"kind": "fact", "id": fact.fact_id, "version_id": fact.version_id,
                                          "text": fact.statement, "fact": fact}
                        else:
                            items.setdefault(key, None)
                        rankings[path].append((key, score))
        # the lexical path ranks facts, entities and summaries each in its own index's list: a Lucene score depends
        # on its index's statistics (field lengths, how many documents of any tenant hold a word), so scores of two
        # indexes are not comparable and only ranks are fused
        if "entity" in hit_kinds:
            rankings[rules.LEXICAL_ENTITIES] = []
            for entity, _norm, score in found_entities:
                key = f"entity:{entity.entity_id}"
                items[key] = {"kind": "entity", "id": entity.entity_id, "text": entity.name, "entity": entity}
                rankings[rules.LEXICAL_ENTITIES].append((key, score))
        if summary_q:
            rankings[rules.LEXICAL_SUMMARIES] = []
            for summary, score in found_summaries:
                key = f"summary:{summary.version_id}"
                items[key] = {"kind": "summary", "id": summary.summary_id, "version_id": summary.version_id,
                              "text": summary.text, "summary": summary}
                rankings[rules.LEXICAL_SUMMARIES].append((key, score))
        rankings = {p: r for p, r in rankings.items() if rules.path_of(p) in use}  # each list arrives best first
        fused = rules.fuse(rankings, limit=limit)
        if any(items[f.key] is None for f in fused):
            return None  # a key-only candidate rose into the top (better ones were unsupported or unreadable)
        hits = [SearchHit(**items[f.key], score=f.score,
                          paths={rules.path_of(p): PathScore(rank=r, score=None if rules.path_of(p) == "lexical" else s)
                                 for p, (r, s) in f.paths.items()})
                for f in fused]
        return SearchResult(query=text, hits=hits, valid_at=valid, known_at=known)

    def decide() -> SearchResult | None:
        # no fact found rests on premises: support needs no query, so no session either
        return work(None) if not premised else ctx.read(work)

    found = decide()
    if found is None:
        # only a vector candidate beyond the ranks fusion could serve lacks its version: read that path in full
        vector_rows, premised_now, sourced_now = read_vector(None)
        by_path = {**by_path, "vector": vector_rows["vector"]}
        premised |= premised_now
        sourced |= sourced_now
        found = decide()
    assert found is not None  # every candidate of the re-read path is a whole version
    found = _marked_weak(ctx, found, known, sourced)
    if task is None:
        return found
    receipt_id = receipts.served(ctx, task=task, version_ids=[h.version_id for h in found.hits if h.kind == "fact"],
                                 operation="search", query=text, valid_at=valid, known_at=known)
    return found.model_copy(update={"receipt_id": receipt_id})


def _marked_weak(ctx: Context, found: SearchResult, known: Any, sourced: set[str]) -> SearchResult:
    """The hits with the relations asserted once by one tool call marked weak (a read only when a hit could be: a
    relation with a source linked, as the search query tells, and at most one independent source)."""
    maybe = [h.fact for h in found.hits if h.fact is not None and h.version_id in sourced and may_be_weak(h.fact)]
    if not maybe:
        return found
    weak = ctx.read(lambda tx: weak_versions(tx, maybe, known))
    if not weak:
        return found
    return found.model_copy(update={"hits": [h.model_copy(update={"weak": True}) if h.version_id in weak else h
                                             for h in found.hits]})


def _supported(tx: Tx | None, tenant: str, by_path: dict[str, list[tuple[Fact | FoundVersion, float]]], valid: Any,
               known: Any, premised: set[str]) -> set[str]:
    """Version ids among the found ones that premises valid at `valid` support (served_at's rule, DESIGN §5); only
    the facts resting on premises are checked (no query when none does)."""
    distinct = {f.version_id: f for ranked in by_path.values() for f, _ in ranked}
    kept = served_at(tx, tenant, list(distinct.values()), valid_at=valid, known_at=known, premised=premised)
    return {f.version_id for f in kept}
