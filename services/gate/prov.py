"""Export a fact's provenance as W3C PROV-JSON: versions as entities, writes as activities, people as agents."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from credo.graph.core import versions as fact_repo
from credo.graph.gate import provenance as provenance_repo
from credo.graph.core.db import Tx
from credo.graph.core.records import FAR_FUTURE
from credo.schema import commands as c
from credo.schema.errors import NotFound
from credo.schema.facts import Fact
from credo.schema.sources import Source
from credo.services.core.context import Context

NAMESPACE = "https://credo.dev/ns/prov#"


def _time(value: datetime) -> dict[str, str]:
    return {"$": value.isoformat(), "type": "xsd:dateTime"}


def _write(known: datetime) -> str:
    # every commit of a tenant has its own known time, so the known time names the write
    return f"credo:write_{known.strftime('%Y%m%dT%H%M%S%f')}Z"


def _agent(name: str) -> str:
    return "credo:agent_" + (re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_") or "anonymous")


class _Doc:
    """A PROV-JSON document under construction."""

    def __init__(self, known: datetime | None = None) -> None:
        self.data: dict[str, Any] = {"prefix": {"credo": NAMESPACE}}
        self.count = 0
        self.known = known  # as known at this point: later invalidations are not yet known

    def node(self, kind: str, node_id: str, attrs: dict[str, Any]) -> None:
        self.data.setdefault(kind, {}).setdefault(node_id, {k: v for k, v in attrs.items() if v is not None})

    def relation(self, kind: str, attrs: dict[str, Any]) -> None:
        self.count += 1
        self.data.setdefault(kind, {})[f"_:{kind}{self.count}"] = {k: v for k, v in attrs.items() if v is not None}

    def write(self, known: datetime) -> str:
        activity = _write(known)
        self.node("activity", activity, {"prov:startTime": known.isoformat(), "prov:endTime": known.isoformat(),
                                         "prov:type": "credo:Write"})
        return activity

    def version(self, f: Fact) -> str:
        vid = f"credo:{f.version_id}"
        if vid in self.data.get("entity", {}):
            return vid
        if self.known is not None and f.known_to is not None and f.known_to > self.known:
            f = f.model_copy(update={"known_to": None, "ended_by": None, "end_reason": None})
        self.node("entity", vid, {
            "prov:type": "credo:FactVersion", "prov:label": f.statement, "credo:fact_id": f.fact_id,
            "credo:state": f.state, "credo:evidence": f.evidence.value, "credo:epistemic": f.epistemic.value,
            "credo:quote": f.quote, "credo:valid_from": _time(f.valid_from) if f.valid_from else None,
            "credo:valid_to": _time(f.valid_to) if f.valid_to else None, "credo:ended_by": f.ended_by,
        })
        self.relation("wasGeneratedBy", {"prov:entity": vid, "prov:activity": self.write(f.known_from),
                                         "prov:time": f.known_from.isoformat()})
        if f.known_to is not None:
            self.relation("wasInvalidatedBy", {"prov:entity": vid, "prov:activity": self.write(f.known_to),
                                               "prov:time": f.known_to.isoformat()})
        self.relation("specializationOf", {"prov:specificEntity": vid, "prov:generalEntity": f"credo:{f.fact_id}"})
        self.node("entity", f"credo:{f.fact_id}", {"prov:type": "credo:Fact"})
        return vid

    def source(self, s: Source) -> str:
        sid = f"credo:{s.source_id}"
        if sid in self.data.get("entity", {}):
            return sid
        self.node("entity", sid, {
            "prov:type": f"credo:{s.kind}", "prov:label": s.title, "prov:location": s.uri,
            "credo:session_id": s.session_id, "credo:generation": s.generation, "credo:index": s.index,
            "credo:role": s.role, "credo:origin": s.origin, "credo:at": _time(s.at) if s.at else None,
        })
        self.relation("wasGeneratedBy", {"prov:entity": sid, "prov:activity": self.write(s.known_from),
                                         "prov:time": s.known_from.isoformat()})
        if s.author:
            agent = _agent(s.author)
            self.node("agent", agent, {"prov:label": s.author,
                                       "prov:type": "prov:Person" if s.origin in (None, "human_input",
                                                                                 "delivered_interjection")
                                       else "prov:SoftwareAgent"})
            self.relation("wasAttributedTo", {"prov:entity": sid, "prov:agent": agent})
        return sid


def _edges(tx: Tx, v: Fact, known: datetime | None) -> provenance_repo.Provenance:
    """A version's evidence edges: every one recorded, or those believed at `known` (for a version retired by
    then, at its last believed instant)."""
    if known is None:
        return provenance_repo.of_version(tx, v.version_id, FAR_FUTURE, any_time=True)
    point = known if v.known_to is None or v.known_to > known else v.known_to - timedelta(microseconds=1)
    return provenance_repo.of_version(tx, v.version_id, point)


def export_prov(ctx: Context, cmd: c.ExportProv) -> dict[str, Any]:
    """The fact's versions, sources, premises and revisions as a PROV-JSON document (a dict), as known at
    `known_at` (default: everything recorded); the same point always gives the same document."""
    fact_id = cmd.fact_id
    known = None if cmd.known_at is None else ctx.known_point(cmd.known_at)

    def work(tx: Tx) -> dict[str, Any]:
        versions = fact_repo.versions_of(tx, ctx.tenant, fact_id, known)
        if known is not None:
            versions = [v for v in versions if v.known_from <= known]
        if not versions:
            raise NotFound("fact", fact_id if known is None else f"{fact_id} as known at {known.isoformat()}")
        doc = _Doc(known)
        withheld = 0  # premises, predecessors and sources above the caller's clearance
        for v in versions:
            vid = doc.version(v)
            edges = _edges(tx, v, known)
            withheld += edges.withheld
            for e in edges.sources:
                doc.relation("wasDerivedFrom", {"prov:generatedEntity": vid, "prov:usedEntity": doc.source(e.source),
                                                "credo:quote": e.quote, "prov:type": {"$": "prov:Quotation", "type": "prov:QUALIFIED_NAME"} if e.quote else None})
            for e in edges.accepted:
                doc.relation("wasDerivedFrom", {"prov:generatedEntity": vid, "prov:usedEntity": doc.source(e.source),
                                                "credo:role": "acceptance"})
            for p in edges.premises:
                if p.premise is None:  # above the caller's clearance: counted, never exported
                    withheld += 1
                    continue
                doc.relation("wasDerivedFrom", {"prov:generatedEntity": vid, "prov:usedEntity": doc.version(p.premise),
                                                "credo:justification": p.justification})
            chain = provenance_repo.supersession(tx, v.version_id, known or FAR_FUTURE)
            for direction, _hops, kind, _at, other in chain:
                if direction == "supersedes" and _hops == 1 and other is None:
                    withheld += 1
                elif direction == "supersedes" and _hops == 1:
                    doc.relation("wasDerivedFrom", {"prov:generatedEntity": vid, "prov:usedEntity": doc.version(other),
                                                    "prov:type": {"$": "prov:Revision", "type": "prov:QUALIFIED_NAME"},
                                                    "credo:kind": kind})
        if withheld:
            doc.data["entity"][f"credo:{versions[0].fact_id}"]["credo:withheld"] = withheld
        return doc.data

    return ctx.read(work)
