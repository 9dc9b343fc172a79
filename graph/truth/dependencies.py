"""DEPENDS_ON edges in the graph: draw them, walk them backwards, and read justifications as of a known time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import FAR_FUTURE, fact_from_row, instant, native, readable
from credo.graph.core.tx_state import WalkStep
from credo.schema.facts import Fact

CREATE_DEPENDENCIES = load("create_dependencies")
READ_DEPENDENTS_LEVEL = load("read_dependents_level")
READ_FACTS_KNOWN_AT = load("read_facts_known_at")
READ_JUSTIFICATIONS = load("read_justifications")
READ_SUPPORT_KNOWN_AT = load("read_support_known_at")
READ_ENDED_PREMISES = load("read_ended_premises")


def link(tx: Tx, known: datetime, rows: list[dict[str, Any]]) -> None:
    """Create edges from {from_id, to_id, justification, valid_from, valid_to} rows (version ids)."""
    if rows:
        tx.one(CREATE_DEPENDENCIES, known=known, rows=rows)


class Dependent(NamedTuple):
    """A current version met by the cascade's walk: what the support rule reads of a Fact (a full Fact model per
    visited version was most of a large walk's cost; the walk returns no statement) and its justifications.
    A named tuple: a large walk builds one per dependent, and a frozen dataclass's `__init__` sets each field
    through `object.__setattr__`."""

    fact_id: str
    version_id: str
    state: str
    statement: str
    valid_from: datetime | None
    valid_to: datetime | None
    justifications: dict[str, frozenset[str]]
    known_to: None = None
    sensitivity: str | None = None  # its label: whether a stale cause may quote a premise's content to its readers


@dataclass(frozen=True)
class Level:
    """What one call of the walk returned: the current versions resting on the given facts or on the facts
    resting on them (two levels), the facts whose versions it expanded (the given ones and level one), which of
    those current summaries derive from, and (when asked) the given facts' current versions by fact id."""

    dependents: list[Dependent]
    expanded: set[str]
    summarized: set[str]
    given: dict[str, list[Dependent]]


def dependents(tx: Tx, tenant: str, fact_ids: list[str], *, with_given: bool = False, met: list[str] = (),
               done: list[str] = ()) -> Level:
    """In one query, two levels of the backward walk from every version of the facts (no statements): each
    current version resting on them, and each resting on those, once, but for the versions in `met` (returned
    before) and the facts in `done` (expanded before), which the caller's visited set already holds.
    A step the transaction's last statement already took (`prefetch`) is not asked again."""
    if not fact_ids:
        return Level([], set(), set(), {})
    ready = tx.state.walk_step
    if ready is not None:
        tx.state.walk_step = None
        if (with_given and ready.fact_ids == fact_ids and ready.statements == tx.statements and not met
                and not done):
            return _level(ready.row, fact_ids, with_given)
    return _level(tx.one(READ_DEPENDENTS_LEVEL, tenant=tenant, fact_ids=fact_ids, with_given=with_given,
                         met=list(met), done=list(done)), fact_ids, with_given)


def prefetch(tx: Tx, fact_ids: list[str], row: dict[str, Any] | None) -> None:
    """Keep a walk step (with the given facts' versions) that a closing statement took from `fact_ids` after its
    writes, for `dependents` to use if the walk starts from them before any other statement runs."""
    if row is not None:
        tx.state.walk_step = WalkStep(list(fact_ids), tx.statements, row)


def _level(row: dict[str, Any] | None, fact_ids: list[str], with_given: bool) -> Level:
    if row is None:
        return Level([], set(fact_ids), set(), {})
    found = []
    for fact_id, version_id, state, valid_from, valid_to, premises, sensitivity in row["dependents"]:
        if len(premises) == 1:  # most dependents rest on one premise
            [(justification, premise)] = premises
            justifications = {justification: frozenset((premise,))}
        else:
            groups: dict[str, list[str]] = {}
            for justification, premise in premises:
                groups.setdefault(justification, []).append(premise)
            justifications = {j: frozenset(p) for j, p in groups.items()}
        found.append(Dependent(fact_id, version_id, state, "", _epoch(valid_from), _epoch(valid_to),
                               justifications, None, sensitivity))
    given: dict[str, list[Dependent]] = {fid: [] for fid in fact_ids} if with_given else {}
    for g in row["given"]:
        given.setdefault(g["fact_id"], []).append(_dependent(g, {}))
    return Level(found, set(fact_ids) | set(row["expanded"]), set(row["summarized"]), given)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_INSTANTS: dict[int, datetime] = {}


def _epoch(micros: int | None) -> datetime | None:
    """Epoch microseconds as a UTC datetime, each distinct value converted once (a large walk repeats a few)."""
    if micros is None:
        return None
    found = _INSTANTS.get(micros)
    if found is None:
        if len(_INSTANTS) > 4096:
            _INSTANTS.clear()
        found = _INSTANTS[micros] = _EPOCH + timedelta(microseconds=micros)
    return found


def _dependent(d: dict[str, Any], justifications: dict[str, frozenset[str]]) -> Dependent:
    return Dependent(
        fact_id=d["fact_id"], version_id=d["version_id"], state=d["state"], statement=d.get("statement") or "",
        valid_from=instant(d["valid_from"]) if d["valid_from"] else None,
        valid_to=instant(d["valid_to"]) if d["valid_to"] else None,
        justifications=justifications, sensitivity=d.get("sensitivity"),
    )


def facts_known_at(tx: Tx, tenant: str, fact_ids: list[str], known_at: datetime | None = None, *,
                   visible_only: bool = False) -> dict[str, list[Fact]]:
    """Versions of each fact believed at known_at (None = now), as believed then (later closings unseen): every
    version, for truth maintenance, or only those the caller may see (`visible_only`: a write naming them)."""
    found: dict[str, list[Fact]] = {fid: [] for fid in fact_ids}
    if not fact_ids:
        return found
    for row in tx.rows(READ_FACTS_KNOWN_AT, tenant=tenant, fact_ids=sorted(set(fact_ids)), known_at=known_at or FAR_FUTURE):
        if visible_only and not row["visible"]:
            continue
        fact = fact_from_row(row["fact"])
        if known_at is not None and fact.known_to is not None:
            fact = fact.model_copy(update={"known_to": None, "ended_by": None, "end_reason": None})
        found.setdefault(fact.fact_id, []).append(fact)
    return found


def justification_edges(tx: Tx, tenant: str, fact_id: str, known_at: datetime | None) -> list[dict[str, Any]]:
    """Believed DEPENDS_ON edges of a fact at known_at: {justification, known_from, fact_id, version_id, statement}."""
    rows = tx.rows(READ_JUSTIFICATIONS, tenant=tenant, fact_id=fact_id, known_at=known_at or FAR_FUTURE)
    return [{**r, "known_from": native(r["known_from"])} for r in rows]


def support_known_at(tx: Tx, tenant: str, fact_ids: list[str], known_at: datetime | None) -> dict[str, list[Dependent]]:
    """Versions of each fact believed at known_at (None = now) with their justifications believed then."""
    found: dict[str, list[Dependent]] = {fid: [] for fid in fact_ids}
    if not fact_ids:
        return found
    for row in tx.rows(READ_SUPPORT_KNOWN_AT, tenant=tenant, fact_ids=sorted(set(fact_ids)),
                       known_at=known_at or FAR_FUTURE):
        groups: dict[str, set[str]] = {}
        for justification, premise in row["premises"]:
            groups.setdefault(justification, set()).add(premise)
        found.setdefault(row["fact_id"], []).append(
            _dependent(row, {j: frozenset(p) for j, p in groups.items()}))
    return found


def ended_premises(tx: Tx, tenant: str, at: datetime, states: list[str]) -> list[Fact]:
    """Current premises whose valid time ended by `at` while a served current dependent rests on them."""
    return readable([fact_from_row(r["fact"]) for r in tx.rows(READ_ENDED_PREMISES, tenant=tenant, at=at,
                                                                states=states)], "ended premises")
