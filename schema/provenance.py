"""Provenance shapes: the `why` tree, extraction candidates and results."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from credo.schema.facts import Fact
from credo.schema.policy import WritePlan
from credo.schema.time import render
from credo.schema.verify import NOT_VERIFIED, VerifiedBy


class WhySource(BaseModel):
    """One source of a fact (or its accepting message), with the verbatim quote and its pointer."""

    model_config = ConfigDict(frozen=True)

    source_id: str
    kind: str
    quote: str | None = None
    session_id: str | None = None
    generation: int | None = None
    index: int | None = None
    author: str | None = None
    origin: str | None = None
    role: str | None = None
    at: datetime | None = None
    title: str | None = None
    uri: str | None = None
    span: list[int] | None = None


class WhyPremise(BaseModel):
    """One premise of a justification, as believed at the read's known time."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    version_id: str
    statement: str
    state: str
    believed_now: bool


class WhyJustification(BaseModel):
    """A set of premises that together support the fact (premises are ANDed); `withheld` counts the premises above
    the caller's clearance, not listed (no statement) but counted in `holds`."""

    model_config = ConfigDict(frozen=True)

    justification_id: str
    holds: bool
    premises: list[WhyPremise]
    withheld: int = 0


class WhyLink(BaseModel):
    """One step of the supersession chain."""

    model_config = ConfigDict(frozen=True)

    kind: str
    at: datetime | None = None
    fact_id: str
    version_id: str
    statement: str


class WhyTree(BaseModel):
    """Why a fact is held: the version, its evidence, sources, acceptance, premises and supersessions."""

    model_config = ConfigDict(frozen=True)

    fact: Fact
    evidence: str
    epistemic: str
    # evidence by consequence (DESIGN §11): what an operational rule still lacks; a relation asserted once by one
    # tool call is weak (DESIGN §9). Both from the sources the reader may see.
    missing_evidence: str | None = None
    weak: bool = False
    sources: list[WhySource] = Field(default_factory=list)
    accepted_in: WhySource | None = None
    justifications: list[WhyJustification] = Field(default_factory=list)
    supersedes: list[WhyLink] = Field(default_factory=list)
    superseded_by: list[WhyLink] = Field(default_factory=list)
    # versions of the chain above the caller's clearance, not listed (no statement): how many on each side
    supersedes_withheld: int = 0
    superseded_by_withheld: int = 0
    # sources (and accepting messages) the caller may not see (a source's own label, or evidence for a version above
    # its clearance): counted, never named
    sources_withheld: int = 0
    # the latest verdict of a verifier on this version (DESIGN §11): "not verified", or the verdict and who gave it;
    # a judgement recorded as its own evidence, never a guarantee (the evidence and epistemic fields are unchanged)
    verification: str = NOT_VERIFIED
    verified_by: VerifiedBy | None = None
    # the write plan that admitted this version (DESIGN §9): which policy, who earns a slot, when, what invalidates
    # it, who sees it; None for a version written before plans were recorded
    write_plan: WritePlan | None = None

    def json_dict(self) -> dict[str, Any]:
        """The tree as JSON-ready data."""
        return json.loads(self.model_dump_json())

    def text(self) -> str:
        """The tree as readable text."""
        f = self.fact
        known = "believed now" if f.known_to is None else f"no longer believed since {render(f.known_to)} ({f.ended_by})"
        lines = [
            f"{f.statement}",
            f"  fact {f.fact_id} version {f.version_id} · state {f.state} · {known}",
            f"  valid {f.valid_text()} · known {f.known_text()}",
            f"  evidence: {self.evidence} · epistemic: {self.epistemic}",
            f"  verification: {self.verification}",
        ]
        if f.operational:
            lines.append(f"  operational: missing {self.missing_evidence}" if self.missing_evidence
                         else "  operational: direct evidence present")
        if self.weak:
            lines.append("  weak: asserted once by one tool call")
        if self.write_plan is not None:
            p = self.write_plan
            lines.append(f"  admitted by write policy {p.policy}: {p.kind}, earns: {p.earns}; written {p.when}; "
                         f"invalidated by {p.invalidate}; {p.visible}" + (f"; TTL {p.ttl}" if p.ttl else ""))
        if f.stale_cause:
            lines.append(f"  stale: {f.stale_cause}")
        if f.lapse_reason:
            lines.append(f"  lapsed: {f.lapse_reason}")
        lines.append("  sources:" if self.sources or self.sources_withheld else "  sources: none")
        lines += [f"    - {_source_line(s)}" for s in self.sources]
        if self.sources_withheld:
            lines.append(f"    - {_withheld(self.sources_withheld, 'source')}")
        if self.accepted_in:
            lines.append(f"  accepted in: {_source_line(self.accepted_in)}")
        for j in self.justifications:
            lines.append(f"  justification {j.justification_id}: {'holds' if j.holds else 'does not hold'}")
            lines += [f"    - {p.statement} [{p.fact_id} {p.state}{'' if p.believed_now else ', not believed now'}]"
                      for p in j.premises]
            if j.withheld:
                lines.append(f"    - {_withheld(j.withheld, 'premise')}")
        lines += [f"  supersedes ({l.kind}): {l.statement} [{l.version_id}]" for l in self.supersedes]
        if self.supersedes_withheld:
            lines.append(f"  supersedes: {_withheld(self.supersedes_withheld, 'version')}")
        lines += [f"  superseded by ({l.kind}): {l.statement} [{l.version_id}]" for l in self.superseded_by]
        if self.superseded_by_withheld:
            lines.append(f"  superseded by: {_withheld(self.superseded_by_withheld, 'version')}")
        return "\n".join(lines)


def _withheld(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count > 1 else ''} withheld (above your clearance)"


def _source_line(s: WhySource) -> str:
    if s.kind == "message":
        where = f"session {s.session_id} gen {s.generation} message #{s.index}"
        who = f"{s.author or 'unknown author'} ({s.origin}, role {s.role})"
        head = f"{where}, {who}, {render(s.at) if s.at else 'time unknown'}"
    else:
        head = f"{s.kind} {s.title or s.source_id}{' <' + s.uri + '>' if s.uri else ''}"
    return f'"{s.quote}" — {head}' if s.quote else head


class Candidate(BaseModel):
    """A fact an extractor proposes, with evidence pointers (message positions in the session generation)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    statement: str
    subject: str
    predicate: str
    object: Any
    quote: str | None = None
    source_index: int
    accepted_index: int | None = None
    kind: str = "semantic"
    valid_from: Any = None
    valid_to: Any = None
    scope: dict[str, str] = Field(default_factory=dict)


class Proposal(BaseModel):
    """What an extractor returns for a segment: the complete new candidate set, and an episode text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    candidates: list[Candidate] = Field(default_factory=list)
    episode: str | None = None


class ExtractionResult(BaseModel):
    """What one committed extraction wrote."""

    model_config = ConfigDict(frozen=True)

    extraction_id: str
    session_id: str
    generation: int
    facts: list[Fact]
    episode_id: str | None
    consumed: list[int]
    segments: int
