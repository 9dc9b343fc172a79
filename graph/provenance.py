"""Reading provenance: a version's sources, acceptances, premises and supersession chain as of a known time."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.db import Tx
from credo.graph.records import fact_from_row, native, readable
from credo.graph.sources import source_from_row
from credo.schema.facts import Fact
from credo.schema.sources import Source

READ_VERSION_PROVENANCE = load("read_version_provenance")
READ_SUPERSESSION = load("read_supersession")


@dataclass
class SourceEdge:
    """A SOURCED_FROM or ACCEPTED_IN edge with its source."""

    source: Source
    quote: str | None
    span: list[int] | None
    known_from: datetime
    known_to: datetime | None


@dataclass
class PremiseEdge:
    """A DEPENDS_ON edge: its justification, the premise version it names, and the premise versions believed then."""

    justification: str
    premise: Fact
    believed: list[Fact] = field(default_factory=list)


@dataclass
class Provenance:
    """Every provenance edge of one version."""

    sources: list[SourceEdge]
    accepted: list[SourceEdge]
    premises: list[PremiseEdge]


def _edge(row: dict[str, Any]) -> SourceEdge:
    return SourceEdge(source=source_from_row(row["source"]), quote=row.get("quote"), span=row.get("span"),
                      known_from=native(row["known_from"]), known_to=native(row.get("known_to")))


def of_version(tx: Tx, version_id: str, known_at: datetime, *, any_time: bool = False) -> Provenance:
    """Provenance edges of a version whose known interval contains `known_at` (or all, with any_time)."""
    row = tx.one(READ_VERSION_PROVENANCE, version_id=version_id, known_at=known_at, any_time=any_time)
    if row is None:
        return Provenance([], [], [])
    premises = readable([PremiseEdge(p["justification"], fact_from_row(p["premise"]),
                                     readable([fact_from_row(b) for b in p["believed"]], "why"))
                         for p in row["premises"]], "why", lambda edge: edge.premise)
    return Provenance([_edge(s) for s in row["sources"]], [_edge(a) for a in row["accepted"]], premises)


def supersession(tx: Tx, version_id: str, known_at: datetime) -> list[tuple[str, int, str, datetime | None, Fact]]:
    """(direction, hops, kind, at, other version) along SUPERSEDES paths known at the point."""
    rows = tx.rows(READ_SUPERSESSION, version_id=version_id, known_at=known_at)
    return readable([(r["direction"], r["hops"], r["kind"], native(r["at"]), fact_from_row(r["fact"])) for r in rows],
                    "why", lambda item: item[4])
