"""Verification beyond the quote gate (DESIGN §11): a verifier's verdict on a fact version against its source
excerpt, the record of it (`verified_by`), and the human review queue.

Models only; the rule verifier is services/verify/rules.py, the entry points services/verify/verify.py.
A verdict is a judgement recorded as evidence of its own kind: it never changes a fact's evidence strength or
epistemic status and is never presented as a guarantee.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

VerdictName = Literal["supported", "overreach", "unsupported"]
VERDICTS: tuple[VerdictName, ...] = get_args(VerdictName)

OverreachKind = Literal["hedge_dropped", "once_to_always", "scope_widened", "condition_dropped"]
"""hedge_dropped: "maybe" became certain; once_to_always: "this time" became "always"; scope_widened: "for this
repo" became "for every repo"; condition_dropped: "don't migrate while API v1 reads it" became "never migrate"."""
OVERREACH_KINDS: tuple[OverreachKind, ...] = get_args(OverreachKind)

VerifierName = Literal["none", "rules", "llm", "review"]
"""The configured verifier (CREDO_VERIFIER): none (every fact reads "not verified"), rules (deterministic cue
lists, EN and ZH), llm (an OpenAI-compatible endpoint), review (a person decides from a queue)."""
VERIFIER_NAMES: tuple[VerifierName, ...] = get_args(VerifierName)

ReviewDecision = Literal["approve", "reject", "edit"]
"""approve: supported; reject: unsupported; edit: the statement is corrected (the normal correct path), then the
corrected version is approved."""
REVIEW_DECISIONS: tuple[ReviewDecision, ...] = get_args(ReviewDecision)

ReviewState = Literal["pending", "approved", "rejected", "edited"]

NOT_VERIFIED = "not verified"


class Verdict(BaseModel):
    """What a verifier answers about a candidate and its excerpt."""

    model_config = ConfigDict(frozen=True)

    verdict: VerdictName
    overreach_kind: OverreachKind | None = None
    reason: str


class Excerpt(BaseModel):
    """What a candidate is checked against: the verbatim quote and the text of the message it came from."""

    model_config = ConfigDict(frozen=True)

    quote: str | None = None
    text: str | None = None
    source_id: str | None = None


class VerifiedBy(BaseModel):
    """One recorded verdict on one fact version: who gave it (a verifier, or a person through the review queue),
    when (known time), and why. Evidence of its own kind, never a guarantee."""

    model_config = ConfigDict(frozen=True)

    verification_id: str
    fact_id: str
    version_id: str
    verifier: str  # rules | llm | review
    verdict: VerdictName
    overreach_kind: OverreachKind | None = None
    reason: str
    known_from: datetime
    actor: str | None = None  # the person, for a review decision

    def text(self) -> str:
        """How a reader sees it: the verdict and who gave it, never as a guarantee."""
        kind = f" ({self.overreach_kind})" if self.overreach_kind else ""
        who = f"review by {self.actor}" if self.verifier == "review" and self.actor else self.verifier
        return f"{self.verdict}{kind} per {who}, {self.known_from.isoformat()} (a judgement, not a guarantee)"


class ReviewItem(BaseModel):
    """A verification request a person decides: the candidate beside its excerpt."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    fact_id: str
    version_id: str
    statement: str
    excerpt: Excerpt = Excerpt()
    state: ReviewState = "pending"
    requested_at: datetime
    requested_by: str | None = None
    decided_at: datetime | None = None
    decided_by: str | None = None
    verified_by: VerifiedBy | None = None  # once decided


class VerifyOutcome(BaseModel):
    """What `verify` did: recorded a verdict, queued the fact for review, or nothing (no verifier configured)."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    version_id: str
    status: Literal["verified", "queued", "not verified"]
    verified_by: VerifiedBy | None = None
    review_item: ReviewItem | None = None
    note: str | None = None
