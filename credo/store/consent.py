"""Store method of consent (DESIGN §9): the person's answer to a surfaced write, relayed by the agent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema import commands_consent as cc
from credo.schema.commands import build
from credo.schema.consent import ConsentResult
from credo.services.core.context import Context
from credo.services.gate import consent as consent_service


class ConsentMixin:
    """Consent half of the public API; mixed into `credo.Store`."""

    _ctx: Context
    _forget_probes: dict[str, Any]

    def consent(self, fact_id: str, decision: str, *, message_id: str | None = None) -> ConsentResult:
        """The person's answer to a fact awaiting consent ("I will remember that …"): `accept` serves it on the word
        of `message_id` (their message saying yes); `delete` forgets it, verified by its residue report."""
        cmd = build(cc.Consent, fact_id=fact_id, decision=decision, message_id=message_id)
        return consent_service.consent(self._ctx, cmd, probes=self._forget_probes)


HANDLERS: dict[str, Callable[..., Any]] = {"consent": consent_service.consent}
"""This mixin's operation, `(ctx, cmd)` (see `Store.handle`); called without the handle's probes, a delete starts
from none (as forget's handler does)."""
