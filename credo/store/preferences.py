"""Store methods of preference validation (DESIGN §12) and of the tenant flag that turns it on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema import commands_preferences as c
from credo.schema.commands import build
from credo.schema.preferences import FlagSetting, Preference, TenantFlagState
from credo.services.core.context import Context
from credo.services.preferences import posterior as preference_service


class PreferencesMixin:
    """Preference half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def set_tenant_flag(self, flag: str, *, enabled: bool) -> FlagSetting:
        """Turn a tenant flag on or off from now on (`preference_validation`, `attested_human_messages`: each off until
        set)."""
        return preference_service.set_tenant_flag(self._ctx, build(c.SetTenantFlag, flag=flag, enabled=enabled))

    def tenant_flags(self, *, known_at: Any = None) -> list[TenantFlagState]:
        """Every tenant flag, on or off and since when, as believed now or at `known_at`."""
        return preference_service.tenant_flags(self._ctx, build(c.TenantFlagsQuery, known_at=known_at))

    def preference_outcome(self, fact_id: str, outcome: str) -> Preference:
        """How acting on a preference turned out: accepted (α + 1), rejected (β + 1), revoked (β + 5); unknown is only
        logged. Refused (ConfigError) while the tenant flag `preference_validation` is off."""
        cmd = build(c.PreferenceOutcomeReport, fact_id=fact_id, outcome=outcome)
        return preference_service.preference_outcome(self._ctx, cmd)

    def preference(self, fact_id: str, *, known_at: Any = None) -> Preference:
        """A preference's posterior (α, β, strength, outcomes, open drift item) now or as known at `known_at`."""
        return preference_service.preference(self._ctx, build(c.PreferenceQuery, fact_id=fact_id, known_at=known_at))


HANDLERS: dict[str, Callable[..., Any]] = {
    "set_tenant_flag": preference_service.set_tenant_flag, "tenant_flags": preference_service.tenant_flags,
    "preference_outcome": preference_service.preference_outcome, "preference": preference_service.preference,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
