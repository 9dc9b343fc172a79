"""Store methods of verification beyond the quote gate: the verifier and the human review queue (DESIGN §11)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema import commands_verify as cv
from credo.schema.commands import build
from credo.schema.pages import After
from credo.schema.verify import ReviewItem, VerifyOutcome
from credo.services.core.context import Context
from credo.services.verify import verify as verify_service


class VerifyMixin:
    """Verification half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def verify(self, fact_id: str) -> VerifyOutcome:
        """Run the configured verifier (CREDO_VERIFIER) on a fact version and record its verdict as `verified_by`
        (never a guarantee; the fact's evidence and epistemic status are unchanged); with `review`, queue it for a
        person; with none, answer "not verified"."""
        return verify_service.verify(self._ctx, build(cv.Verify, fact_id=fact_id))

    def review_queue(self, *, page: After | None = None) -> list[ReviewItem]:
        """The pending review items the caller may see, oldest first, each candidate beside its excerpt; `page` reads
        one page of it in its query (REST's pages: `.next_after` says which item the next follows)."""
        return verify_service.review_queue(self._ctx, build(cv.ReviewQueueQuery), page=page)

    def review(self, item_id: str, decision: str, *, statement: str | None = None,
               reason: str | None = None) -> ReviewItem:
        """A person's decision on a review item: approve, reject, or edit (correct the statement through the
        normal correct path, then approve the corrected version)."""
        cmd = build(cv.Review, item_id=item_id, decision=decision, statement=statement, reason=reason)
        return verify_service.review(self._ctx, cmd)


HANDLERS: dict[str, Callable[..., Any]] = {
    "verify": verify_service.verify, "review_queue": verify_service.review_queue, "review": verify_service.review,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
