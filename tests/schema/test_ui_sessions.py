"""When an inspector session has ended (schema/ui_sessions.py): logged out, past its absolute end, or idle too long."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.ui_sessions import UiSession

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
IDLE = timedelta(minutes=30)


def session(*, last_seen_min: float = 0, ttl_min: float = 480, revoked_min: float | None = None) -> UiSession:
    return UiSession(id_hash="h", key_id="k", tenant="t", created_at=T0,
                     last_seen=T0 + timedelta(minutes=last_seen_min),
                     expires_at=T0 + timedelta(minutes=ttl_min),
                     revoked_at=None if revoked_min is None else T0 + timedelta(minutes=revoked_min))


@pytest.mark.parametrize(("s", "now_min", "why"), [
    (session(), 0, None),
    (session(), 29.9, None),
    (session(), 30, "idle"),  # idle for exactly the idle time: ended
    (session(last_seen_min=460), 479.9, None),  # busy until just before the end
    (session(last_seen_min=470), 480, "expired"),  # the absolute end, however busy
    (session(last_seen_min=470), 500, "expired"),
    (session(revoked_min=10), 10, "ended"),  # logged out (or its key revoked)
    (session(revoked_min=10), 9, None),  # before the revocation it was fine
    (session(revoked_min=10, last_seen_min=5), 11, "ended"),
])
def test_a_session_ends_at_logout_at_its_absolute_end_or_after_the_idle_time(s, now_min, why):
    said = s.ended(T0 + timedelta(minutes=now_min), IDLE)
    assert (said is None) if why is None else (said is not None and why in said)
