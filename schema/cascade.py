"""Truth-maintenance shapes: justifications, summaries with their verifying trace, and cascade reports."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

TraceKind = Literal["fact", "summary", "source"]
Outcome = Literal["holds", "lapsed", "retracted"]
"""How a re-verification closes (reverify)."""
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)


class PremiseRef(BaseModel):
    """One premise of a justification: the premise fact and the version the edge was drawn to."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    version_id: str
    statement: str
    state: str | None = None
    believed_now: bool = False


class Justification(BaseModel):
    """A set of premises that together support a fact (premises ANDed; a fact's justifications ORed); a premise above
    the caller's clearance is counted in `withheld`, not listed."""

    model_config = ConfigDict(frozen=True)

    justification_id: str
    fact_id: str
    premises: list[PremiseRef]
    known_from: datetime
    holds: bool = False
    withheld: int = 0  # premises above the caller's clearance: not listed (no statement), counted in `holds`


class StaleCause(BaseModel):
    """Why a dependent went stale: which premise, which change, when."""

    model_config = ConfigDict(frozen=True)

    premise_fact_id: str
    premise_version_id: str
    premise_statement: str
    change: str
    at: datetime
    old_content: str | None = None
    new_content: str | None = None
    withheld: bool = False  # the premise is more sensitive than the dependent (or the reader): no content named

    def without_content(self) -> StaleCause:
        """This cause naming the premise by id only (its statement and old/new content left out)."""
        return self.model_copy(update={"premise_statement": "", "old_content": None, "new_content": None,
                                       "withheld": True})

    def text(self) -> str:
        """One readable line for the stale version and for `stale()`."""
        if self.withheld:
            what = "was corrected" if self.change == "correction" else f"stopped being believed: {self.change}"
            return (f"premise {self.premise_fact_id} (content withheld: above this fact's sensitivity) {what} "
                    f"at {self.at.isoformat()}")
        if self.old_content is not None:
            return (f"premise corrected: {self.old_content!r} → {self.new_content!r} "
                    f"(premise {self.premise_fact_id}, at {self.at.isoformat()})")
        return (f"premise {self.premise_fact_id} ({self.premise_statement!r}) stopped being believed: "
                f"{self.change} at {self.at.isoformat()}")


class FlaggedFact(BaseModel):
    """A dependent that lost all support and became stale in this write."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    version_id: str  # the version flagged stale (a state flag on it; no new version is written)
    statement: str
    cause: StaleCause
    path: list[str]
    depth: int


class FlaggedSummary(BaseModel):
    """A summary whose trace no longer holds (or holds again, for `restored`)."""

    model_config = ConfigDict(frozen=True)

    summary_id: str
    version_id: str
    topic: str
    reason: str


class CascadeReport(BaseModel):
    """What one write's cascade re-checked, flagged stale, and turned green again."""

    model_config = ConfigDict(frozen=True)

    at: datetime
    changed: list[str] = Field(default_factory=list)
    checked: list[str] = Field(default_factory=list)
    facts: list[FlaggedFact] = Field(default_factory=list)
    summaries: list[FlaggedSummary] = Field(default_factory=list)
    restored: list[FlaggedSummary] = Field(default_factory=list)
    withheld: int = 0  # flagged or restored items above the writer's clearance: counted, not named

    @property
    def flagged_ids(self) -> set[str]:
        """Fact ids and summary ids this write flagged stale."""
        return {f.fact_id for f in self.facts} | {s.summary_id for s in self.summaries}

    def fact(self, fact_id: str) -> FlaggedFact | None:
        """The flag for one fact id, or None."""
        return next((f for f in self.facts if f.fact_id == fact_id), None)


class TraceItem(BaseModel):
    """One input of a summary as it was when the summary was built: which version, with which content hash."""

    model_config = ConfigDict(frozen=True)

    kind: TraceKind
    ref_id: str
    version_id: str
    hash: str


class SummaryInput(BaseModel):
    """What a summarizer sees of one input."""

    model_config = ConfigDict(frozen=True)

    kind: TraceKind
    ref_id: str
    version_id: str
    text: str


class Summary(BaseModel):
    """One version of a derived text with the verifying trace of the exact inputs it was built from."""

    model_config = ConfigDict(frozen=True)

    tenant: str
    summary_id: str
    version_id: str
    topic: str
    text: str
    text_hash: str
    summarizer: str | None = None
    state: str = "active"
    known_from: datetime
    known_to: datetime | None = None
    ended_by: str | None = None
    end_reason: str | None = None
    stale_cause: str | None = None
    trace: list[TraceItem] = Field(default_factory=list)
    cascade: CascadeReport | None = Field(default=None, exclude=True)


class StaleItem(BaseModel):
    """One thing awaiting re-verification (a fact) or a rebuild (a summary)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["fact", "summary"]
    id: str
    version_id: str
    text: str
    since: datetime
    cause: str | None = None
