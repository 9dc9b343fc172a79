"""Inspector sessions in Neo4j (services/access/ui_sessions.py), on explicit clocks: a session resolves to its key's
principal until logout, its key's revocation, its absolute end or an idle gap; only its hash is stored; expired ones
are purged at the next login."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.api_keys import Principal
from credo.schema.errors import Unauthenticated
from credo.services.access import api_keys
from credo.services.access import ui_sessions
from tests.api.conftest import new_tenant

# in the past: sessions these tests open are expired in real time, so a real login's purge may take them, and
# this file's purge takes only sessions that really expired
T0 = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(days=2)
TTL, IDLE = 8 * 3600.0, 1800.0


class _Q:  # raw Cypher for the tests only
    def __init__(self, text: str) -> None:
        self.text = text


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


@pytest.fixture
def opened(neo4j_db):
    """A key, its principal, and a session opened for it at T0."""
    tenant = new_tenant(neo4j_db, scopes=("curator",))
    who = api_keys.authenticate(neo4j_db, tenant.key)
    return tenant, who, ui_sessions.open_session(neo4j_db, who, ttl_s=TTL, now=T0)


def test_a_session_resolves_to_the_same_principal_as_its_key(neo4j_db, opened):
    _, who, sid = opened
    assert ui_sessions.resolve(neo4j_db, sid, idle_s=IDLE, now=at(1)) == who


def test_each_use_restarts_the_idle_time_until_the_absolute_end(neo4j_db, opened):
    _, _, sid = opened
    for minute in range(20, 480, 20):  # used every 20 minutes: never idle for 30
        ui_sessions.resolve(neo4j_db, sid, idle_s=IDLE, now=at(minute))
    with pytest.raises(Unauthenticated, match="expired"):
        ui_sessions.resolve(neo4j_db, sid, idle_s=IDLE, now=at(480))


def test_an_idle_gap_ends_the_session(neo4j_db, opened):
    _, _, sid = opened
    ui_sessions.resolve(neo4j_db, sid, idle_s=IDLE, now=at(10))
    with pytest.raises(Unauthenticated, match="idle"):
        ui_sessions.resolve(neo4j_db, sid, idle_s=IDLE, now=at(40))


@pytest.mark.parametrize("ending", ["logout", "revoke"])
def test_logout_and_key_revocation_end_the_session(neo4j_db, opened, ending):
    tenant, _, sid = opened
    if ending == "logout":
        ui_sessions.close_session(neo4j_db, sid, now=at(1))
        with pytest.raises(Unauthenticated, match="ended"):
            ui_sessions.resolve(neo4j_db, sid, idle_s=IDLE, now=at(2))
    else:
        api_keys.revoke_key(neo4j_db, key_id=tenant.key_id)  # revoked now: the session's key is read on every use
        with pytest.raises(Unauthenticated, match="revoked"):
            ui_sessions.resolve(neo4j_db, sid, idle_s=IDLE, now=at(2))
        [row] = neo4j_db.query(_Q("MATCH (s:UiSession {id_hash: $h}) RETURN s.revoked_at AS at"),
                               h=ui_sessions.id_hash(sid))
        assert row["at"] is not None


@pytest.mark.parametrize("presented", [None, "", "not-a-session", "credo_abc_def"])
def test_an_unknown_session_id_is_refused(neo4j_db, presented):
    with pytest.raises(Unauthenticated):
        ui_sessions.resolve(neo4j_db, presented, idle_s=IDLE)


def test_a_session_needs_a_key(neo4j_db):
    with pytest.raises(Unauthenticated):
        ui_sessions.open_session(neo4j_db, Principal.local("t_local"), ttl_s=TTL)


def test_sessions_past_their_end_are_purged_at_the_next_login(neo4j_db, opened):
    tenant, who, sid = opened
    count = _Q("MATCH (s:UiSession {id_hash: $h}) RETURN count(s) AS n")
    assert neo4j_db.query(count, h=ui_sessions.id_hash(sid))[0]["n"] == 1
    ui_sessions.open_session(neo4j_db, who, ttl_s=TTL, now=at(481))
    assert neo4j_db.query(count, h=ui_sessions.id_hash(sid))[0]["n"] == 0
