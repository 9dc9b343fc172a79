"""The human review queue as a verifier (CREDO_VERIFIER=review): `verify` queues the version for a person instead
of judging it; the person's decision (`review`) is the verdict."""

from __future__ import annotations

from dataclasses import dataclass

from credo.schema.verify import Excerpt, Verdict


@dataclass(frozen=True)
class ReviewQueue:
    """Marks the configured verifier as a person: services/verify/verify.py queues instead of calling `verify`."""

    name: str = "review"

    def verify(self, statement: str, excerpt: Excerpt) -> Verdict:
        """Never called: a person decides from the queue."""
        raise NotImplementedError("the review queue is decided by a person (review), not called")
