"""Command models of verification beyond the quote gate: the verifier and the human review queue (DESIGN §11,
issue 27 item 2)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints, model_validator

from credo.schema.command_base import Command, Id, Text
from credo.schema.verify import ReviewDecision


class Verify(Command):
    """Run the configured verifier on a fact version (a fact id: its current version); with the review queue, the
    version is queued for a person instead."""

    fact_id: Id = Field(description="a fact id (its current version) or a version id (v_...)")


class ReviewQueueQuery(Command):
    """The pending review items the caller may see, oldest first: each candidate beside its excerpt."""


class Review(Command):
    """A person's decision on a review item: approve, reject, or edit (correct the statement, then approve)."""

    item_id: Id
    decision: ReviewDecision
    statement: Annotated[Text, StringConstraints(strip_whitespace=True, min_length=1)] | None = Field(
        default=None, description="the corrected statement (decision edit only)")
    reason: Text | None = None

    @model_validator(mode="after")
    def _edit_has_statement(self) -> "Review":
        if self.decision == "edit" and not self.statement:
            raise ValueError("statement: an edit-and-approve needs the corrected statement")
        if self.decision != "edit" and self.statement is not None:
            raise ValueError("statement: only an edit (decision 'edit') takes a statement")
        return self
