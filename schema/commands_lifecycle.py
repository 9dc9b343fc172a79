"""Commands of the explicit lifecycle acts: deprecate, quarantine and release, each with a reason and an actor."""

from __future__ import annotations

from pydantic import model_validator

from credo.schema.behalf import OnBehalfOf
from credo.schema.command_base import Command, Id, Reason


class Deprecate(Command):
    """Set a fact aside as no longer to be served (kept as history), saying why and who decided."""

    fact_id: Id
    reason: Reason
    actor: OnBehalfOf


class _SourceOrFact(Command):
    source_id: Id | None = None
    fact_id: Id | None = None
    reason: Reason
    actor: OnBehalfOf

    @model_validator(mode="after")
    def _one_target(self) -> "_SourceOrFact":
        if (self.source_id is None) == (self.fact_id is None):
            raise ValueError("give exactly one of source_id or fact_id")
        return self


class Quarantine(_SourceOrFact):
    """Set aside a suspicious source's facts (or one fact): not served, not deleted, until released or rejected."""


class Release(_SourceOrFact):
    """Release quarantined facts of a source (or one fact) back to candidate, to be admitted again."""
