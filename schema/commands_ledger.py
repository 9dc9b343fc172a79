"""Command models of the audit ledger and the utility ledger (issue 12 items 5 and 6)."""

from __future__ import annotations


from pydantic import Field

from credo.schema.utility import FeedbackOutcome
from credo.schema.command_base import INT64_MAX, Command, Id, Int, Name, Text, Time


class AuditQuery(Command):
    """Ledger events in chain order, filtered by operation, id, actor and time; `after` continues after a seq."""

    operation: Name | None = None
    id: Name | None = Field(default=None, description="an id the event names (subject, version, source, ...)")
    actor: Name | None = None
    from_time: Time | None = Field(default=None, description="events at or after this instant")
    to_time: Time | None = Field(default=None, description="events before this instant")
    after: Int | None = Field(default=None, ge=0, le=INT64_MAX, description="continue after this ledger position (seq)")
    limit: Int | None = Field(default=None, ge=1, le=10_000, description="at most this many events")


class VerifyLedger(Command):
    """Re-hash the tenant's ledger chain and name every changed, inserted or removed event."""


class Feedback(Command):
    """Re-classify a served recall: useful (+1.0) or harmful (−2.0); unknown changes nothing."""

    receipt_id: Id
    fact_id: Id
    outcome: FeedbackOutcome
    reason: Text | None = None


class UtilityQuery(Command):
    """A memory's utility ledger: its tier, uses, active days and net utility."""

    fact_id: Id
