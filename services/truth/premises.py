"""Premises and justifications: say what a fact rests on, and read what it rested on at any known time."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from credo.graph.truth import dependencies as dep_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core import ledger
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema import commands as c
from credo.schema.cascade import Justification, PremiseRef
from credo.schema.errors import InvalidInput, NotCurrent, NotFound
from credo.schema.facts import Fact
from credo.schema.names import check_ref
from credo.schema.time import optional_point
from credo.services.core.context import Context
from credo.services.truth.rules import believed_now
from credo.services.core.versions import current_versions, the_current
from credo.services.core.unit_of_work import Write


def check_premises(premises: Any, field: str = "premises") -> list[str]:
    """A non-empty list of distinct fact or version ids (refused otherwise, before anything is written)."""
    if isinstance(premises, str) or not isinstance(premises, Sequence) or not premises:
        raise InvalidInput(field, "must be a non-empty list of fact ids (f_...) or version ids (v_...)")
    cleaned = []
    for ref in premises:
        ref = getattr(ref, "fact_id", ref)
        if not isinstance(ref, str) or not ref.startswith(("f_", "v_")):
            raise InvalidInput(field, f"each premise must be a fact id (f_...) or a version id (v_...), got {ref!r}")
        if ref not in cleaned:
            cleaned.append(ref)
    return cleaned


def link(
    tx: Tx, ctx: Context, known: datetime, dependents: list[Fact], premises: list[str], *,
    valid_from: datetime | None = None, valid_to: datetime | None = None,
) -> str:
    """Inside a write: one new justification of every given dependent version by the premises (ANDed)."""
    return link_many(tx, ctx, known, [(dependents, premises)], valid_from=valid_from, valid_to=valid_to)[0]


def link_many(
    tx: Tx, ctx: Context, known: datetime, items: list[tuple[list[Fact], list[str]]], *,
    valid_from: datetime | None = None, valid_to: datetime | None = None,
) -> list[str]:
    """Several justifications in one batch: premises resolved with one read, edges drawn with one write."""
    fact_refs = sorted({r for _d, refs in items for r in refs if r.startswith("f_")})
    current = dep_repo.facts_known_at(tx, ctx.tenant, fact_refs, visible_only=True)  # a hidden one: NotFound
    resolved: dict[str, Fact] = {}
    for ref in fact_refs:
        versions = current.get(ref) or []
        resolved[ref] = versions[0] if len(versions) == 1 else the_current(tx, ctx.tenant, ref)  # precise errors
    for ref in {r for _d, refs in items for r in refs if not r.startswith("f_")}:
        resolved[ref] = _version(tx, ctx, ref)
    rows, events, ids = [], [], []
    for dependents, refs in items:
        premises = [resolved[r] for r in refs]
        if any(p.fact_id in {d.fact_id for d in dependents} for p in premises):
            raise InvalidInput("premises", "a fact cannot be its own premise")
        justification = new_id("j")
        ids.append(justification)
        rows += [{"from_id": d.version_id, "to_id": p.version_id, "justification": justification,
                  "valid_from": valid_from, "valid_to": valid_to} for d in dependents for p in premises]
        events += [("justify", d.fact_id, {"justification": justification, "premises": [p.fact_id for p in premises]})
                   for d in dependents]
    dep_repo.link(tx, known, rows)
    ledger.audit(tx, ctx.tenant, known, events)
    return ids


def _version(tx: Tx, ctx: Context, ref: str) -> Fact:
    found = current_versions(tx, ctx.tenant, ref)[0]
    if found.known_to is not None:
        raise NotCurrent(ref, "this premise version is no longer believed; name the fact id instead")
    return found


def justify(ctx: Context, cmd: c.Justify) -> str:
    """Add a justification (its premises ANDed; a fact's justifications ORed); returns its id."""
    fact_id, refs = cmd.fact_id, check_premises(cmd.premises)
    vf, _ = optional_point(cmd.valid_from, "valid_from")
    vt, _ = optional_point(cmd.valid_to, "valid_to")

    def work(w: Write) -> str:
        tx, known = w.tx, w.known
        dependents = [v for v in current_versions(tx, ctx.tenant, fact_id) if v.known_to is None]
        if not dependents:
            the_current(tx, ctx.tenant, fact_id)  # raises the precise error
        justification = link(tx, ctx, known, dependents, refs, valid_from=vf, valid_to=vt)
        # the new edges may close a cycle with no outside support: let this write's cascade re-check the region
        recheck = [the_current(tx, ctx.tenant, ref) for ref in refs]
        w.changes.facts.extend((p, "re-checked after a new justification", None) for p in recheck)
        return justification

    return ctx.write(work)


def justifications(ctx: Context, cmd: c.JustificationsQuery) -> list[Justification]:
    """The justifications of a fact believed at known_at (default now), each saying whether it holds then."""
    fact_id, known_at = check_ref(cmd.fact_id), cmd.known_at
    known = None if known_at is None else ctx.known_point(known_at)
    point = known or ctx.now()

    def work(tx: Tx) -> list[Justification]:
        if not fact_repo.versions_of(tx, ctx.tenant, fact_id):
            raise NotFound("fact", fact_id)
        edges = dep_repo.justification_edges(tx, ctx.tenant, fact_id, known)
        premises = dep_repo.facts_known_at(tx, ctx.tenant, sorted({e["fact_id"] for e in edges}), known)
        grouped: dict[str, list[dict[str, Any]]] = {}
        for edge in edges:
            grouped.setdefault(edge["justification"], []).append(edge)
        found = []
        for jid, group in grouped.items():
            refs, withheld = [], []
            for edge in group:
                versions = premises.get(edge["fact_id"], [])
                if edge["withheld"]:  # above the caller's clearance: counted (and in `holds`), never listed
                    withheld.append(believed_now(versions, point))
                    continue
                refs.append(PremiseRef(fact_id=edge["fact_id"], version_id=edge["version_id"],
                                       statement=edge["statement"] or "",
                                       state=versions[0].state if versions else None,
                                       believed_now=believed_now(versions, point)))
            found.append(Justification(justification_id=jid, fact_id=fact_id, premises=refs, withheld=len(withheld),
                                       known_from=min(e["known_from"] for e in group),
                                       holds=all(r.believed_now for r in refs) and all(withheld)))
        return sorted(found, key=lambda j: (j.known_from, j.justification_id))

    return ctx.read(work)
