"""The transition check reads the tenant's ledger by known time: the window's events come out of an index on
(tenant, at) by range, not every event of the tenant filtered one by one (migration 0023)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from credo.graph.truth.transition import READ_TRANSITION_EVENTS
from credo.store import Store

WRITES = 40
T0 = datetime(2025, 1, 1, 9, 0, tzinfo=timezone.utc)


def _ledger_rows(profile: dict) -> int:
    """Rows that seeks and scans on :AuditEvent produced, over the whole plan."""
    own = profile.get("rows", 0) if profile["operatorType"].split("@")[0].startswith(("NodeIndex", "NodeByLabel")) \
        and ":AuditEvent" in str(profile.get("args", {}).get("Details", "")) else 0
    return own + sum(_ledger_rows(child) for child in profile.get("children", []))


def test_the_transition_window_reads_only_its_own_ledger_events_from_the_index(neo4j_db, tenant, clock):
    # given a tenant whose ledger holds forty writes, one a minute
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    for i in range(WRITES):
        clock.at((T0 + timedelta(minutes=i)).isoformat())
        store.add_fact(f"service {i}", "owned_by", "Alice")
    # when the events of a three-minute window are read
    params = {"tenant": tenant, "known_before": T0 + timedelta(minutes=10), "known_after": T0 + timedelta(minutes=13),
              "scope_key": None, "limit": 1000, "levels": ["*", "*"]}
    with neo4j_db._driver.session(database=neo4j_db.database) as session:
        result = session.run("PROFILE " + READ_TRANSITION_EVENTS.body, params)
        rows = list(result)
        read = _ledger_rows(result.consume().profile)
    # then only the window's events come out of the ledger's index, not the tenant's whole ledger
    assert len(rows) == 3 and read == 3, (len(rows), read)
