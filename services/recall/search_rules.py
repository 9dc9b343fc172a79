"""Pure rules of search: query words, the Lucene query (tenant clause included), entity names named in a query,
kinds, and reciprocal-rank fusion. No driver; table-tested in tests/services/recall/test_search_rules.py."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from credo.schema.facts import MEMORY_KINDS  # noqa: F401 - the kinds a search names, with HIT_KINDS
from credo.schema.search import HIT_KINDS  # noqa: F401

RRF_K = 60  # the constant of Cormack et al. (2009); ranks beyond ~k add little
# The vector path's similarity floor (raw cosine of all-MiniLM-L6-v2 unit vectors; Neo4j scores (1 + cosine) / 2),
# by how many words the query has: below it a fact is not "about" the query, so nothing found is a possible answer.
# Measured by bench/bench_similarity.py (bench/RESULTS.md): one word scores a fact about it 0.31-0.69 and its best
# unrelated fact 0.12-0.32; two words 0.25-0.79 and 0.13-0.32; a longer question scores the fact that answers it in
# other words as low as 0.14 ("something to keep me awake" -> "Maria drinks an Americano, no sugar"), inside the
# range of unrelated facts (best 0.10-0.37), so its floor only drops what no question of the cases reached.
VECTOR_FLOORS = {1: 0.30, 2: 0.25}  # words in the query -> floor
VECTOR_FLOOR = 0.10  # three words or more
MAX_TERMS = 32  # Lucene clauses per field, well under its 1024 limit
# the lexical path's rankings of entities and summaries, fused apart from its ranking of facts (one list per index)
LEXICAL_ENTITIES = "lexical:entity"
LEXICAL_SUMMARIES = "lexical:summary"

_WORD = re.compile(r"\w+", re.UNICODE)
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')


def words(text: str) -> list[str]:
    """The query's distinct lower-case words, in order (at most MAX_TERMS)."""
    return list(dict.fromkeys(w.casefold() for w in _WORD.findall(text)))[:MAX_TERMS]


def vector_floor(text: str) -> float:
    """The least cosine a fact needs to be found by the vector path for this query (VECTOR_FLOORS)."""
    return VECTOR_FLOORS.get(len(words(text)), VECTOR_FLOOR)


def predicate_words(text: str) -> list[str]:
    """Words and adjacent word pairs joined by '_' and by nothing: how a query may name a predicate
    ("owned by" -> owned_by, "plays for" -> playsfor)."""
    ws = words(text)
    pairs = [j.join(p) for p in zip(ws, ws[1:]) for j in ("_", "")]
    return list(dict.fromkeys(ws + pairs))


# Lucene's classic English stop set (StandardAnalyzer's): Neo4j's default full-text analyzer keeps these words,
# and in a large tenant each matches most texts, so Lucene would score them all for almost no evidence
STOP_WORDS = frozenset("a an and are as at be but by for if in into is it no not of on or such that the their then "
                       "there these they this to was will with".split())


def lexical_words(text: str) -> list[str]:
    """The query's words for full text: stop words left out while at least two other words remain."""
    ws = words(text)
    kept = [w for w in ws if w not in STOP_WORDS]
    return kept if len(kept) >= 2 else ws


def _escape(term: str) -> str:
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def lucene(text: str, fields: Sequence[str], tenant: str | None) -> str | None:
    """A Lucene query matching any query word in `fields`, restricted to `tenant` by a required phrase clause on the
    indexed `tenant` property (so other tenants' postings are skipped); no tenant clause when `tenant` is None (for
    an index holding one tenant's nodes only); None when the text has no word."""
    ws = lexical_words(text)
    if not ws:
        return None
    any_word = " OR ".join(f"{f}:({' OR '.join(_escape(w) for w in ws)})" for f in fields)
    tenant_words = _WORD.findall(tenant) if tenant is not None else []
    if not tenant_words:  # a tenant id without a word cannot be phrased; the exact tenant filter still applies
        return any_word
    phrase = " ".join(w.replace("\\", "\\\\").replace('"', '\\"') for w in tenant_words)
    return f'+tenant:"{phrase}" +({any_word})'


def named(query: str, norm: str | None) -> bool:
    """Whether an entity's normalised name appears in the query as whole words (case-folded)."""
    if not norm:
        return False
    q = " ".join(_WORD.findall(query.casefold()))
    n = " ".join(_WORD.findall(norm.casefold()))
    return bool(n) and f" {n} " in f" {q} "


def split_kinds(kinds: Iterable[str] | str | None) -> tuple[frozenset[str], list[str] | None]:
    """(hit kinds to search, memory kinds of facts or None for any) from a `kinds` filter; ValueError names a bad one.

    A memory kind implies facts (of those kinds only); without any hit kind named, memory kinds search facts only."""
    if kinds is None:
        return frozenset(HIT_KINDS), None
    given = [kinds] if isinstance(kinds, str) else list(kinds)
    norm = [str(k).strip().lower() for k in given]
    bad = [k for k in norm if k not in HIT_KINDS and k not in MEMORY_KINDS]
    if bad or not norm:
        raise ValueError(f"unknown kind {bad[0]!r}" if bad else "must name at least one kind")
    memory = sorted({k for k in norm if k in MEMORY_KINDS})
    hits = {k for k in norm if k in HIT_KINDS} | ({"fact"} if memory else set())
    return frozenset(hits), memory or None


def path_of(ranking: str) -> str:
    """The path a ranking belongs to: 'lexical:entity' is the lexical path's ranking of the entities' index."""
    return ranking.partition(":")[0]


@dataclass(frozen=True)
class Fused:
    """One item after fusion: its key, fused score, and (rank, score) on each path that found it."""

    key: str
    score: float
    paths: dict[str, tuple[int, float]] = field(default_factory=dict)


def fuse(rankings: Mapping[str, Sequence[tuple[str, float]]], *, k: int = RRF_K, limit: int | None = None) -> list[Fused]:
    """Reciprocal-rank fusion: each path's list (best first, (key, path score)) adds 1 / (k + rank) to its items.

    Ties go to the item with the better best rank, then the one found by more paths, then the key (deterministic).
    A key listed twice by one path keeps its first (best) rank there."""
    found: dict[str, dict[str, tuple[int, float]]] = {}
    for path, ranked in rankings.items():
        rank = 0
        for key, score in ranked:
            paths = found.setdefault(key, {})
            if path in paths:
                continue
            rank += 1
            paths[path] = (rank, score)
    fused = [Fused(key, sum(1.0 / (k + r) for r, _ in paths.values()), paths) for key, paths in found.items()]
    fused.sort(key=lambda f: (-f.score, min(r for r, _ in f.paths.values()), -len(f.paths), f.key))
    return fused if limit is None else fused[:limit]
