"""Reading provenance: a version's sources, acceptances, premises and supersession chain as of a known time."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import fact_from_row, native, readable
from credo.graph.gate.sources import source_from_row
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
    """A DEPENDS_ON edge: its justification, the premise version it names (None when it is above the caller's
    clearance: withheld), and the premise versions believed then (a withheld one holds only its state and intervals,
    enough to say whether it is believed)."""

    justification: str
    premise: Fact | None
    believed: list[Fact] = field(default_factory=list)

    @property
    def withheld(self) -> bool:
        """Whether the premise is above the caller's clearance."""
        return self.premise is None


@dataclass
class Provenance:
    """Every provenance edge of one version."""

    sources: list[SourceEdge]
    accepted: list[SourceEdge]
    premises: list[PremiseEdge]
    withheld: int = 0  # source and acceptance edges to sources the caller may not see: counted, not read


def _edge(row: dict[str, Any]) -> SourceEdge:
    return SourceEdge(source=source_from_row(row["source"]), quote=row.get("quote"), span=row.get("span"),
                      known_from=native(row["known_from"]), known_to=native(row.get("known_to")))


def of_version(tx: Tx, version_id: str, known_at: datetime, *, any_time: bool = False) -> Provenance:
    """Provenance edges of a version whose known interval contains `known_at` (or all, with any_time)."""
    row = tx.one(READ_VERSION_PROVENANCE, version_id=version_id, known_at=known_at, any_time=any_time)
    if row is None:
        return Provenance([], [], [])
    premises = [PremiseEdge(p["justification"], None if p["withheld"] else fact_from_row(p["premise"]),
                            _believed(p["believed"])) for p in row["premises"]]
    kept = {id(e) for e in readable([e for e in premises if not e.withheld], "why", lambda edge: edge.premise)}
    premises = [e for e in premises if e.withheld or id(e) in kept]
    return Provenance([_edge(s) for s in row["sources"]], [_edge(a) for a in row["accepted"]], premises,
                      withheld=row["sources_withheld"] + row["accepted_withheld"])


def _believed(rows: list[dict[str, Any]]) -> list[Fact]:
    """Premise versions believed at a point; a withheld one is a Fact holding only its state and both intervals."""
    found = [fact_from_row(b) for b in rows if not b.get("withheld")]
    slim = [Fact.model_construct(state=b["state"], **{k: native(b[k]) for k in
                                                      ("known_from", "known_to", "valid_from", "valid_to")})
            for b in rows if b.get("withheld")]
    return list(readable(found, "why")) + slim


def supersession(tx: Tx, version_id: str, known_at: datetime
                 ) -> list[tuple[str, int, str, datetime | None, Fact | None]]:
    """(direction, hops, kind, at, other version) along SUPERSEDES paths known at the point; the other version is
    None when it is above the caller's clearance (withheld)."""
    rows = tx.rows(READ_SUPERSESSION, version_id=version_id, known_at=known_at)
    found = [(r["direction"], r["hops"], r["kind"], native(r["at"]), None if r["withheld"] else fact_from_row(r["fact"]))
             for r in rows]
    kept = {id(i) for i in readable([i for i in found if i[4] is not None], "why", lambda item: item[4])}
    return [i for i in found if i[4] is None or id(i) in kept]
