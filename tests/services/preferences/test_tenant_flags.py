"""`tenant_flags`: every tenant flag, on or off and since when, as believed now or at an earlier known time; another
tenant's settings never show."""

from __future__ import annotations

import uuid

from credo.schema.preferences import TENANT_FLAGS
from credo.store import Store


def _states(found):
    return {s.flag: (s.enabled, s.known_from) for s in found}


def test_every_flag_is_listed_off_and_never_set_until_an_admin_sets_it(store):
    found = store.tenant_flags()
    assert [s.flag for s in found] == list(TENANT_FLAGS)
    assert all(s.enabled is False and s.known_from is None and s.tenant == store.tenant for s in found)


def test_a_flag_reads_as_set_then_and_earlier_known_times_keep_their_setting(store, clock):
    clock.at("2025-06-01T10:00:00+00:00")
    on = store.set_tenant_flag("attested_human_messages", enabled=True)
    clock.at("2025-06-02T10:00:00+00:00")
    off = store.set_tenant_flag("attested_human_messages", enabled=False)
    clock.at("2025-06-03T10:00:00+00:00")
    now = _states(store.tenant_flags())
    assert now["attested_human_messages"] == (False, off.known_from)
    assert now["preference_validation"] == (False, None)
    then = _states(store.tenant_flags(known_at="2025-06-01T12:00:00+00:00"))
    assert then["attested_human_messages"] == (True, on.known_from)
    before = _states(store.tenant_flags(known_at="2025-05-31T00:00:00+00:00"))
    assert before["attested_human_messages"] == (False, None)


def test_another_tenants_flags_never_show(store, neo4j_db, clock):
    other_store = Store(neo4j_db, tenant=f"t_{uuid.uuid4().hex[:12]}", embedder=None, _clock=clock, _owns_db=False)
    other_store.set_tenant_flag("preference_validation", enabled=True)
    assert _states(store.tenant_flags())["preference_validation"] == (False, None)
    assert _states(other_store.tenant_flags())["preference_validation"][0] is True
