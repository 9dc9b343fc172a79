"""Store methods of the audit ledger (hash-chained events, verification) and the utility ledger (feedback, tiers).

See DESIGN.md §1 (AuditEvent) and issue 12 items 5-6; the hashing rule is documented in `credo.schema.ledger`.
"""

from __future__ import annotations

from collections.abc import Callable

from typing import Any

from credo.schema import commands_ledger as c
from credo.schema.commands import build
from credo.schema.ledger import AuditPage, LedgerReport
from credo.schema.utility import MemoryUsage
from credo.services.ledger import audit as audit_service
from credo.services.recall import utility as utility_service
from credo.services.core.context import Context


class LedgerMixin:
    """Ledger half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def audit(self, *, operation: str | None = None, id: str | None = None, actor: str | None = None,
              from_time: Any = None, to_time: Any = None, after: int | None = None,
              limit: int | None = None) -> AuditPage:
        """Ledger events in chain order matching the filters; `after=page.next_after` reads the next page."""
        cmd = build(c.AuditQuery, operation=operation, id=id, actor=actor, from_time=from_time, to_time=to_time,
                    after=after, limit=limit)
        return audit_service.audit(self._ctx, cmd)

    def verify_ledger(self) -> LedgerReport:
        """Re-hash the ledger chain; `ok` unless an event was changed, inserted or removed (each one named)."""
        return audit_service.verify_ledger(self._ctx, build(c.VerifyLedger))

    def feedback(self, receipt_id: str, fact_id: str, *, outcome: str, reason: str | None = None) -> MemoryUsage:
        """Re-classify one served recall: useful (+1.0) or harmful (−2.0), replacing its neutral; unknown changes
        nothing. Answers the memory's utility ledger."""
        cmd = build(c.Feedback, receipt_id=receipt_id, fact_id=fact_id, outcome=outcome, reason=reason)
        return utility_service.feedback(self._ctx, cmd)

    def utility(self, fact_id: str) -> MemoryUsage:
        """A memory's tier, uses, active days and net utility (its recalls by outcome)."""
        return utility_service.memory(self._ctx, build(c.UtilityQuery, fact_id=fact_id))


HANDLERS: dict[str, Callable[..., Any]] = {
    "audit": audit_service.audit, "verify_ledger": audit_service.verify_ledger, "feedback": utility_service.feedback,
    "utility": utility_service.memory,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
