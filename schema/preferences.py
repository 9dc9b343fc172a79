"""Preferences that outcomes correct (DESIGN §12, issue 27 item 3): the Beta posterior of one preference fact and
the drift item a person settles. Off by default, behind the tenant flag `preference_validation`.

Models only; the arithmetic, the revoke penalty and the drift rule are services/preferences/rules.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

PreferenceOutcome = Literal["accepted", "rejected", "revoked", "unknown"]
"""How acting on a preference turned out: accepted (α + 1), rejected (β + 1), revoked (β + the revoke penalty: the
person took it back), unknown (only logged)."""
PREFERENCE_OUTCOMES: tuple[PreferenceOutcome, ...] = get_args(PreferenceOutcome)

TenantFlag = Literal["preference_validation", "attested_human_messages"]
"""The tenant flags an admin may set (set_tenant_flag); each is off until set. `attested_human_messages`: only a key
holding `attest` may ingest human testimony, and no key quotes or consents with a message it vouched for itself
(services/gate/attest.py)."""
TENANT_FLAGS: tuple[TenantFlag, ...] = get_args(TenantFlag)


class FlagSetting(BaseModel):
    """A tenant flag as set, from `known_from` on."""

    model_config = ConfigDict(frozen=True)

    tenant: str
    flag: TenantFlag
    enabled: bool
    known_from: datetime


class TenantFlagState(BaseModel):
    """A tenant flag as believed at the time asked: on or off, and since when it was set (None: never set, so off)."""

    model_config = ConfigDict(frozen=True)

    tenant: str
    flag: TenantFlag
    enabled: bool
    known_from: datetime | None


class PreferenceDrift(BaseModel):
    """Why a drift item was opened: the short-term view of a preference left its long-term view by more than the
    threshold after an outcome. It asks a person; it changes nothing of the fact."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    short_mean: float  # mean of the posterior over the last `window` outcomes (from the prior)
    long_mean: float  # mean of the whole posterior
    threshold: float
    window: int


class Preference(BaseModel):
    """The posterior of one preference fact at `known_from` (a version; a new outcome makes the next one)."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    tenant: str
    alpha: float  # 1 (the prior) + accepted
    beta: float  # 1 (the prior) + rejected + REVOKE_PENALTY × revoked
    strength: float  # the posterior mean, α / (α + β)
    lower: float  # an approximate 90 % lower credible bound (normal approximation, clipped to [0, 1])
    outcomes: int  # accepted, rejected and revoked outcomes counted (unknown ones are only logged)
    recent: list[PreferenceOutcome] = []  # the last outcomes counted, oldest first (the short-term view's window)
    version_id: str | None = None  # None: no outcome yet (the prior)
    known_from: datetime | None = None
    known_to: datetime | None = None
    drift: str | None = None  # the id of the open drift item in the conflicts queue, when one is open
