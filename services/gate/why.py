"""Why is a fact held: its version, evidence, verbatim sources, acceptance, premises and supersessions."""

from __future__ import annotations

from datetime import datetime

from credo.graph.core import versions as fact_repo
from credo.graph.gate import provenance as provenance_repo
from credo.graph.core.db import Tx
from credo.graph.gate.provenance import SourceEdge
from credo.graph.verify import verifications as verification_repo
from credo.graph.core.records import FAR_FUTURE
from credo.schema import commands as c
from credo.schema.errors import InvalidInput, NotFound
from credo.schema.facts import Fact
from credo.schema.policy import WritePlan
from credo.schema.provenance import WhyJustification, WhyLink, WhyPremise, WhySource, WhyTree
from credo.schema.names import check_ref
from credo.schema.time import contains
from credo.services.facts import evidence_rules
from credo.services.truth.rules import believed_now
from credo.services.core.context import Context


def believed_at(versions: list[Fact], at: datetime | None, valid_now: datetime) -> Fact | None:
    """The version believed at known time `at` (None = now), preferring one valid now (pure rule)."""
    point = at or FAR_FUTURE
    held = [v for v in versions if v.known_from <= point and (v.known_to is None or v.known_to > point)]
    if not held:
        return None
    valid = [v for v in held if contains(v.valid_from, v.valid_to, valid_now)]
    chosen = max(valid or held, key=lambda v: v.known_from)
    if at is not None and chosen.known_to is not None:
        chosen = chosen.model_copy(update={"known_to": None, "ended_by": None, "end_reason": None})
    return chosen


def _source(edge: SourceEdge) -> WhySource:
    s = edge.source
    return WhySource(source_id=s.source_id, kind=s.kind, quote=edge.quote, session_id=s.session_id,
                     generation=s.generation, index=s.index, author=s.author, origin=s.origin, role=s.role, at=s.at,
                     title=s.title, uri=s.uri, span=edge.span)


def _link(kind: str, at: datetime | None, f: Fact) -> WhyLink:
    return WhyLink(kind=kind, at=at, fact_id=f.fact_id, version_id=f.version_id, statement=f.statement)


def pick_version(tx: Tx, tenant: str, ref: str, known: datetime | None, now: datetime) -> Fact:
    """The version `ref` names as believed at `known`; the last one believed if it is retracted now."""
    chosen = _pick(tx, tenant, check_ref(ref), known, now)
    if chosen.unreadable is not None:
        broken = chosen.unreadable
        raise InvalidInput(broken.field, f"the stored version {broken.version_id} cannot be read ({broken.reason}); "
                                         f"repair it with correct_fact or retract_fact")
    return chosen


def _pick(tx: Tx, tenant: str, ref: str, known: datetime | None, now: datetime) -> Fact:
    if ref.startswith("v_"):
        found = fact_repo.version(tx, tenant, ref, known)
        if found is None:
            raise NotFound("fact version", ref)
        return found
    versions = fact_repo.versions_of(tx, tenant, ref, known)
    if not versions:
        raise NotFound("fact", ref)
    chosen = believed_at(versions, known, now)
    if chosen is None and known is None:
        chosen = max(versions, key=lambda v: v.known_from)
    if chosen is None:
        raise NotFound("fact", f"{ref} as known at {known.isoformat()}")
    return chosen


def why(ctx: Context, cmd: c.WhyQuery) -> WhyTree:
    """The justification tree of a fact as believed at `known_at` (default: now)."""
    fact_id = cmd.fact_id
    known = None if cmd.known_at is None else ctx.known_point(cmd.known_at)
    # as believed at a known time, premises are judged at that time too, so the answer never drifts
    now = known or ctx.now()

    def work(tx: Tx) -> WhyTree:
        fact = pick_version(tx, ctx.tenant, fact_id, known, now)
        point = known or FAR_FUTURE
        edges = provenance_repo.of_version(tx, fact.version_id, point)
        groups: dict[str, list[WhyPremise]] = {}
        withheld: dict[str, list[bool]] = {}  # per justification, whether each withheld premise is believed now
        for p in edges.premises:
            held = believed_at(p.believed, known, now)
            served = held is not None and believed_now([held], now)  # the cascade's own rule, so both agree
            if p.premise is None:  # above the caller's clearance: counted (and in `holds`), never shown
                groups.setdefault(p.justification, [])
                withheld.setdefault(p.justification, []).append(served)
                continue
            groups.setdefault(p.justification, []).append(WhyPremise(
                fact_id=p.premise.fact_id, version_id=p.premise.version_id, statement=p.premise.statement,
                state=held.state if held else "not believed",
                believed_now=served))
        chain = provenance_repo.supersession(tx, fact.version_id, point)
        sources = [_source(e) for e in edges.sources]
        seen = [s.model_dump() for s in sources]
        verified = verification_repo.latest(tx, ctx.tenant, [fact.version_id], known).get(fact.version_id)
        return WhyTree(
            fact=fact, evidence=fact.evidence.value, epistemic=fact.epistemic.value,
            missing_evidence=evidence_rules.missing_evidence(fact, seen), weak=evidence_rules.weak(fact, seen),
            sources=sources,
            accepted_in=_source(edges.accepted[-1]) if edges.accepted else None,
            justifications=[WhyJustification(
                justification_id=j, premises=ps, withheld=len(withheld.get(j, [])),
                holds=all(p.believed_now for p in ps) and all(withheld.get(j, []))) for j, ps in groups.items()],
            supersedes=[_link(k, at, f) for d, _h, k, at, f in chain if d == "supersedes" and f is not None],
            superseded_by=[_link(k, at, f) for d, _h, k, at, f in chain if d == "superseded_by" and f is not None],
            supersedes_withheld=sum(1 for d, *_r, f in chain if d == "supersedes" and f is None),
            superseded_by_withheld=sum(1 for d, *_r, f in chain if d == "superseded_by" and f is None),
            sources_withheld=edges.withheld,
            **({"verification": verified.text(), "verified_by": verified} if verified else {}),
            write_plan=WritePlan.from_compact(fact.write_plan),
        )

    return ctx.read(work)
