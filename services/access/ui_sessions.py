"""The inspector's logins as server-side sessions: open one for an authenticated key, resolve it on every page
request to that key's principal, end it at logout or when the key is revoked.

The browser's cookie holds a random 256-bit id and nothing else; the graph holds its sha256 (a high-entropy secret
needs no slow hash), so neither a copied database nor a log line yields a usable cookie. Sessions live in Neo4j, so
every `credo serve` process behind a load balancer sees the same ones.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta, timezone

from credo.graph.access import ui_sessions as repo
from credo.graph.core.db import Database
from credo.schema.api_keys import Principal
from credo.schema.errors import Unauthenticated

TOUCH_EVERY_S = 60.0  # last_seen is written at most this often (or a tenth of the idle time, if shorter)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def id_hash(session_id: str) -> str:
    """What the graph stores of a session id."""
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


def open_session(db: Database, principal: Principal, *, ttl_s: float, now: datetime | None = None) -> str:
    """A new session for an authenticated key's principal, ending `ttl_s` from now at the latest; returns the id the
    browser keeps (shown once, never stored). Sessions past their end are purged on the way."""
    if principal.key_id is None:
        raise Unauthenticated("an inspector session needs an API key")
    at = now or _now()
    repo.purge(db, at)
    session_id = secrets.token_urlsafe(32)
    repo.create(db, id_hash=id_hash(session_id), key_id=principal.key_id, tenant=principal.tenant, now=at,
                expires_at=at + timedelta(seconds=ttl_s))
    return session_id


def resolve(db: Database, session_id: str | None, *, idle_s: float, now: datetime | None = None) -> Principal:
    """The principal of the session's key, checked now (the key itself too); Unauthenticated when the session is
    missing, unknown, logged out, expired, idle too long, or its key is revoked."""
    if not session_id:
        raise Unauthenticated("log in to the inspector (no session)")
    at = now or _now()
    found = repo.find(db, id_hash(session_id))
    if found is None:
        raise Unauthenticated("unknown inspector session; log in again")
    session, key = found
    why = session.ended(at, timedelta(seconds=idle_s))
    if why is not None:
        raise Unauthenticated(why)
    if key is None or key.revoked_at is not None or key.tenant != session.tenant:
        raise Unauthenticated("the API key of this session was revoked; log in again")
    if (at - session.last_seen).total_seconds() >= min(TOUCH_EVERY_S, idle_s / 10):
        repo.touch(db, session.id_hash, at)
    return Principal.of_key(key)


def close_session(db: Database, session_id: str | None, *, now: datetime | None = None) -> None:
    """End the session (logout): its cookie, copied or not, no longer authenticates anything."""
    if session_id:
        repo.revoke(db, id_hash(session_id), now or _now())


def revoke_key_sessions(db: Database, key_id: str, *, now: datetime | None = None) -> int:
    """End every open session of a key (it was revoked); how many were open."""
    return repo.revoke_for_key(db, key_id, now or _now())
