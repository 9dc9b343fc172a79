"""API key shapes: what `credo keys list` shows (never the secret or its hash) and who a request acts as."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict


class ApiKey(BaseModel):
    """One API key as stored: public id, tenant, clearance, label, lifetime."""

    model_config = ConfigDict(frozen=True)

    key_id: str
    tenant: str
    clearance: str
    name: str | None = None
    created_at: datetime
    revoked_at: datetime | None = None


class NewApiKey(BaseModel):
    """A key just created: the full secret is shown once, here, and never stored."""

    model_config = ConfigDict(frozen=True)

    key: ApiKey
    secret: str


class Principal(BaseModel):
    """Who a request acts as: the tenant and clearance its key grants (the tenant never comes from the request)."""

    model_config = ConfigDict(frozen=True)

    tenant: str
    clearance: str
    key_id: str | None = None
