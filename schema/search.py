"""Search shapes: the one clearance ordering, and what a search answers (hits saying which paths found them)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, computed_field

from credo.schema.cascade import Summary
from credo.schema.entities import Entity
from credo.schema.errors import InvalidInput
from credo.schema.facts import Fact

# The one sensitivity ordering, least restricted first. A clearance sees its own level and every level below it.
SENSITIVITY_ORDER: tuple[str, ...] = ("public", "internal", "confidential", "secret")
# A version written without a sensitivity is treated as this level (so a `public` key never sees unlabelled data).
UNLABELLED = "internal"
# The clearance that sees everything, unknown labels included (the embedded Python API, and CREDO_AUTH=off).
CLEARANCE_ALL = "all"
CLEARANCES: tuple[str, ...] = (*SENSITIVITY_ORDER, CLEARANCE_ALL)


# The `$levels` entry that sees every label (clearance `all`): cypher/fragments/visible.cypher tests for it.
EVERY_LEVEL = "*"


def check_clearance(clearance: object, field: str = "clearance") -> str:
    """A clearance as stored and compared (trimmed, lower-case); InvalidInput naming `field` for anything else."""
    level = clearance.strip().lower() if isinstance(clearance, str) else None
    if level not in CLEARANCES:
        raise InvalidInput(field, f"unknown clearance {clearance!r}; clearances are {list(CLEARANCES)}")
    return level


def query_levels(clearance: str) -> list[str]:
    """The `$levels` parameter every read query gets from its caller's clearance (graph/core/db.py `Tx.rows`): the labels
    it sees, or [EVERY_LEVEL] for `all`; always two entries or more, so every clearance sends the same parameter
    type and size bucket (Neo4j plans a query once per bucket: one plan whatever the key)."""
    labels = visible_levels(check_clearance(clearance))
    found = [EVERY_LEVEL] if labels is None else labels
    return found * 2 if len(found) == 1 else found


def clearance_rank(levels: list[str]) -> int:
    """A read's `$levels` as the highest sensitivity rank they see (the `sensitivity_rank` search key of
    `search_keys` below: the index position in SENSITIVITY_ORDER, len(SENSITIVITY_ORDER) for any
    other label, which only clearance `all` sees)."""
    if EVERY_LEVEL in levels:
        return len(SENSITIVITY_ORDER)
    return max((SENSITIVITY_ORDER.index(level) for level in levels if level in SENSITIVITY_ORDER), default=-1)


# The open-interval sentinels of the search keys (`search_keys`): 2^53 - 1 and its negative.
OPEN_END_KEY = 9007199254740991
OPEN_START_KEY = -OPEN_END_KEY
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MILLISECOND = timedelta(milliseconds=1)


def epoch_ms(instant: datetime) -> int:
    """An instant as integer epoch milliseconds, floored as Cypher's `epochMillis` floors them."""
    return (instant - _EPOCH) // _MILLISECOND


def epoch_key(instant: datetime | None, open_key: int) -> int:
    """An instant as a search key (`epoch_ms`); `open_key` for none."""
    return open_key if instant is None else epoch_ms(instant)


def search_keys(known_from: datetime, known_to: datetime | None, valid_from: datetime | None,
                valid_to: datetime | None, sensitivity: str | None) -> dict[str, int]:
    """The `fact_search` vector index's filter keys of a new version, computed where its row is built: a `SET` of
    them computed in the create statement cost the bulk write 0.3-0.4x of its floor (bench/history/journal.md,
    issue 25).
    A close sets `known_to_key` to `known_to.epochMillis` (Cypher's floor, as here); migration 0018 computes the same
    values for versions stored before. Times are floored to the millisecond, so a key only narrows: every query
    that filters on them tests the instants and @visible again right after."""
    label = (sensitivity or UNLABELLED).lower()
    return {
        "known_from_key": epoch_key(known_from, OPEN_START_KEY),
        "known_to_key": epoch_key(known_to, OPEN_END_KEY),
        "valid_from_key": epoch_key(valid_from, OPEN_START_KEY),
        "valid_to_key": epoch_key(valid_to, OPEN_END_KEY),
        "sensitivity_rank": SENSITIVITY_ORDER.index(label) if label in SENSITIVITY_ORDER else len(SENSITIVITY_ORDER),
    }


def visible_levels(clearance: str) -> list[str] | None:
    """The sensitivity labels a clearance sees (lower-case), or None for every label (unknown ones included).

    A label outside SENSITIVITY_ORDER is seen only by `all`; an unknown clearance is refused by the caller."""
    level = clearance.strip().lower()
    if level == CLEARANCE_ALL:
        return None
    return list(SENSITIVITY_ORDER[: SENSITIVITY_ORDER.index(level) + 1])


def can_see(clearance: str, sensitivity: str | None) -> bool:
    """Whether a caller with `clearance` may be served a version of this `sensitivity` (None = UNLABELLED)."""
    levels = visible_levels(clearance)
    label = (sensitivity or UNLABELLED).strip().lower()
    return levels is None or label in levels


def readers_see(sensitivity: str | None, other: str | None) -> bool:
    """Whether every caller who may see a version labelled `sensitivity` may also see one labelled `other` (None =
    UNLABELLED): what a version may name of another (its `bounded_by`) without telling a reader of it more."""
    return all(can_see(c, other) for c in CLEARANCES if can_see(c, sensitivity))


def least_clearance(sensitivity: str | None) -> str:
    """The least clearance that sees a version of this label: its readers may see what this clearance sees, no more
    (a stale cause quotes a premise to a dependent's readers only if this clearance sees the premise)."""
    label = (sensitivity or UNLABELLED).strip().lower()
    return label if label in SENSITIVITY_ORDER else CLEARANCE_ALL


def most_sensitive(labels: list[str | None]) -> str | None:
    """The most sensitive of some labels as written (None = unlabelled, ranked as UNLABELLED; a label outside the
    order ranks above every level): what a version derived from them all (a merge) carries."""
    def rank(label: str | None) -> int:
        level = (label or UNLABELLED).strip().lower()
        return SENSITIVITY_ORDER.index(level) if level in SENSITIVITY_ORDER else len(SENSITIVITY_ORDER)

    return max(labels, key=rank) if labels else None


SearchPath = Literal["lexical", "vector", "graph"]
SEARCH_PATHS: tuple[SearchPath, ...] = get_args(SearchPath)
HitKind = Literal["fact", "entity", "summary"]
HIT_KINDS: tuple[HitKind, ...] = get_args(HitKind)


class PathScore(BaseModel):
    """How one retrieval path ranked a hit: its 1-based rank and the path's own score (the vector path's similarity,
    the graph path's; none for the lexical path, whose Lucene score moves with statistics over every tenant's and
    clearance's documents: it would tell a caller about what it may not see)."""

    model_config = ConfigDict(frozen=True)

    rank: int
    score: float | None = None


class FoundVersion(BaseModel):
    """A visible fact version a search path found beyond the ranks fusion can serve: its keys and state only (the
    path's full versions are read for the ranks that can become hits)."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    version_id: str
    state: str

    @property
    def undated(self) -> bool:
        """Unknown here (its valid interval is not read); support checks (services/core/support.py) order by it only."""
        return False


class SearchHit(BaseModel):
    """One item a search found: what it is, its fused score, and each path that found it with its rank and score."""

    model_config = ConfigDict(frozen=True)

    kind: HitKind
    id: str  # fact_id, entity_id or summary_id
    version_id: str | None = None
    text: str
    score: float  # reciprocal-rank fusion of the paths below
    paths: dict[str, PathScore] = Field(default_factory=dict)
    fact: Fact | None = None
    entity: Entity | None = None
    summary: Summary | None = None
    weak: bool = False  # a relation asserted once by one tool call, with no other source (DESIGN §9)

    # what a reader must not take for established knowledge, on each hit (a fact's own marks; entities and
    # summaries carry none): a hypothesis (a hedged word), a candidate (not admitted), undated (valid since an
    # unknown time: it may hold at the point) and disputed (a conflicting write awaits a decision)
    @computed_field  # type: ignore[prop-decorator]
    @property
    def hypothesis(self) -> bool:
        """The fact is a hypothesis, not confirmed."""
        return self.fact is not None and self.fact.epistemic == "hypothesis"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def candidate(self) -> bool:
        """The fact is a candidate: extracted or proposed, not admitted (served only when `states` asks for it)."""
        return self.fact is not None and self.fact.state == "candidate"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def undated(self) -> bool:
        """The fact's start is unknown: it may hold at the point, nobody knows since when."""
        return self.fact is not None and self.fact.valid_from is None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def disputed(self) -> bool:
        """The fact's value is disputed by a conflicting write that awaits a decision."""
        return self.fact is not None and self.fact.disputed

    @property
    def flags(self) -> list[str]:
        """The marks set on this hit, in a fixed order."""
        return [f for f in ("hypothesis", "candidate", "undated", "disputed", "weak") if getattr(self, f)]

    @property
    def found_by(self) -> list[str]:
        """The paths that found this hit, in a fixed order."""
        return [p for p in SEARCH_PATHS if p in self.paths]


class SearchResult(BaseModel):
    """A search's answer: the hits best first (at most `limit`), and the point it was read at."""

    model_config = ConfigDict(frozen=True)

    query: str
    hits: list[SearchHit]
    valid_at: datetime
    known_at: datetime | None = None  # None: believed now
    receipt_id: str | None = None  # the read receipt, when the search served a task
