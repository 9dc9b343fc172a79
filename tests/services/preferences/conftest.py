"""A remembered preference, and a store whose tenant turned preference validation on."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tests.messages import messages

T0 = datetime(2025, 6, 1, 9, 0, tzinfo=timezone.utc)


msg = messages(T0, "alice")


def remember_preference(store, clock):
    """A person states a preference and the agent remembers it (category preference)."""
    clock.at("2025-06-01T10:00:00+00:00")
    store.ingest_messages("s", [msg(0, "I prefer short answers without bullet points."),
                                msg(1, "Also, the deploy window is Sunday.")])
    return store.turn("s").remember("I prefer short answers without bullet points",
                                    "Alice prefers short answers without bullet points", category="preference")


@pytest.fixture
def preference(store, clock):
    """A remembered preference on a tenant with preference validation on."""
    store.set_tenant_flag("preference_validation", enabled=True)
    return remember_preference(store, clock)
