"""Command models of preference validation (DESIGN §12, issue 27 item 3) and of the tenant flag that turns it on."""

from __future__ import annotations

from pydantic import Field

from credo.schema.command_base import Command, Id, Time
from credo.schema.preferences import PreferenceOutcome, TenantFlag


class PreferenceOutcomeReport(Command):
    """Say how acting on a preference turned out: accepted, rejected or revoked update its posterior; unknown is only
    logged. Refused while the tenant flag `preference_validation` is off."""

    fact_id: Id
    outcome: PreferenceOutcome


class PreferenceQuery(Command):
    """A preference's posterior (α, β, strength, outcomes, drift), as believed now or at `known_at`."""

    fact_id: Id
    known_at: Time | None = Field(default=None, description="as the store knew it then (default now)")


class SetTenantFlag(Command):
    """Turn a tenant flag on or off (from now on; earlier known times keep their setting)."""

    flag: TenantFlag
    enabled: bool


class TenantFlagsQuery(Command):
    """Every tenant flag, on or off and since when, as believed now or at `known_at`."""

    known_at: Time | None = Field(default=None, description="as the store knew it then (default now)")
