"""The inspector's server-side session: what is stored of one login, and the rule that says when it has ended.

The browser holds only an opaque random id (the cookie); the graph holds its sha256, the API key it acts with, and
its lifetime. A session ends at logout, when its key is revoked, at its absolute end, or after an idle time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict


class UiSession(BaseModel):
    """One inspector login as stored (its id itself is never stored, only its hash)."""

    model_config = ConfigDict(frozen=True)

    id_hash: str
    key_id: str
    tenant: str
    created_at: datetime
    last_seen: datetime
    expires_at: datetime
    revoked_at: datetime | None = None

    def ended(self, now: datetime, idle: timedelta) -> str | None:
        """Why the session cannot be used at `now` (logged out, past its end, idle too long), or None."""
        if self.revoked_at is not None and self.revoked_at <= now:
            return "this session was ended (logged out, or its key was revoked)"
        if now >= self.expires_at:
            return "this session has expired; log in again"
        if now - self.last_seen >= idle:
            return "this session was idle too long; log in again"
        return None
