"""The context package (DESIGN §8): what is current, what is history and why it stopped applying, what is open.

Every item carries its evidence kind, its sources (verbatim quote and message pointer) and `verified_at`
(freshness is separate from confidence). `markdown` is the rendering for an LLM prompt, current first, within the
token budget asked for; what it left out is said in the text and counted in `omitted`, never dropped silently.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from credo.schema.facts import Fact
from credo.schema.provenance import WhySource
from credo.schema.verify import NOT_VERIFIED, VerifiedBy

Part = Literal["current", "historical", "open"]
OpenKind = Literal["conflict", "stale", "unsupported", "hypothesis", "awaiting_consent", "candidate", "quarantined",
                   "undated"]
"""What an open item is, in the order a context package lists them."""
OPEN_KINDS: tuple[OpenKind, ...] = get_args(OpenKind)


# one source of an item: the verbatim quote and where it was said — the why-view's source, not a copy of it
ContextSource = WhySource


class ContextItem(BaseModel):
    """One version in a package, placed in its part with what the part needs said about it."""

    model_config = ConfigDict(frozen=True)

    part: Part
    statement: str
    fact: Fact
    evidence: str
    epistemic: str
    verified_at: datetime | None = None
    sources: list[ContextSource] = Field(default_factory=list)
    disputed: bool = False
    # evidence by consequence (DESIGN §11): what an operational rule still lacks, from the sources the reader may see
    missing_evidence: str | None = None
    # a relation asserted once by one tool call, with no other source (DESIGN §9): retrieval says so
    weak: bool = False
    # a verifier's latest verdict on the version (DESIGN §11): "not verified", or the verdict and who gave it; never a
    # guarantee (evidence and epistemic are unchanged by it)
    verification: str = NOT_VERIFIED
    verified_by: VerifiedBy | None = None
    # historical: when and why it stopped applying
    end_kind: str | None = None  # succession, correction, retraction, end, lapsed, deprecated, bounded, range_write
    ended_at: datetime | None = None
    superseded_by: str | None = None  # the statement of the superseding value, when one supersedes it
    reason: str | None = None
    # open: what kind of open question, its cause, and what is unknown
    open_kind: OpenKind | None = None
    cause: str | None = None
    unknown: str | None = None


class ContextPackage(BaseModel):
    """A context package for a question or an entity, read at (valid_at, known_at)."""

    model_config = ConfigDict(frozen=True)

    query: str
    entities: list[str] = Field(default_factory=list)  # the entities the package was built from
    valid_at: datetime
    known_at: datetime | None = None  # None: as believed when read
    current: list[ContextItem] = Field(default_factory=list)
    historical: list[ContextItem] = Field(default_factory=list)
    open: list[ContextItem] = Field(default_factory=list)
    markdown: str = ""
    tokens: int = 0  # of `markdown`, by the approximation of services/recall/context_rules.py (4 characters a token)
    budget_tokens: int | None = None
    truncated: bool = False
    omitted: dict[str, int] = Field(default_factory=dict)  # items per part left out of `markdown`
    receipt_id: str | None = None  # the read receipt, when the package was served to a task
