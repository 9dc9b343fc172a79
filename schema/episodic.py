"""Episodic memory's answers: what a roll-off forgot, and what a reflection proposes (DESIGN §9)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from credo.schema.forget import ForgetResult

DEFAULT_WORKFLOW = "default"
"""An episode's kind of workflow is its `scope["workflow"]`; an episode without one belongs to this one."""


class RollOff(BaseModel):
    """What `roll_off` forgot: one forget result (with its residue report) per episode past its workflow's TTL."""

    model_config = ConfigDict(frozen=True)

    at: datetime  # the instant the ages were measured at
    ttls: dict[str, float] = Field(default_factory=dict)  # the TTL in hours of each workflow that had episodes
    forgotten: list[ForgetResult] = Field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether every episode rolled off left no residue."""
        return all(r.report.complete for r in self.forgotten)


class EpisodeRef(BaseModel):
    """An episode a proposal rests on: its fact id and its quote (None when it was written without one)."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    quote: str | None = None


class SemanticProposal(BaseModel):
    """A semantic candidate a reflection proposes: never written by it. It becomes semantic only through the gate
    (`remember` with a verbatim quote, `add_fact` by a curator, or `extract` then `admit`)."""

    model_config = ConfigDict(frozen=True)

    statement: str
    subject: str
    predicate: str
    object: str
    episodes: list[EpisodeRef]
    reason: str  # why it is proposed: "recurs 3 times in the window", or "proposed by the extractor"


class Reflection(BaseModel):
    """A reflection's answer: the episodes it read and the semantic candidates it proposes (nothing semantic is
    written); `proposer` says which proposer ran ("recurrence" or "extractor")."""

    model_config = ConfigDict(frozen=True)

    episodes: int
    proposer: str
    proposals: list[SemanticProposal] = Field(default_factory=list)
