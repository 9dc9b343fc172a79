"""The inspector's sessions in the graph: open, find (with the key they act with), touch, revoke, purge.

Only the sha256 of a session id is stored; the id itself lives in the browser's cookie.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.access.api_keys import key_of
from credo.graph.core.db import Database
from credo.graph.core.records import native
from credo.schema.api_keys import ApiKey
from credo.schema.ui_sessions import UiSession

CREATE_UI_SESSION = load("create_ui_session")
READ_UI_SESSION = load("read_ui_session")
TOUCH_UI_SESSION = load("touch_ui_session")
REVOKE_UI_SESSION = load("revoke_ui_session")
REVOKE_UI_SESSIONS = load("revoke_ui_sessions")
PURGE_UI_SESSIONS = load("purge_ui_sessions")


def _session(node: dict[str, Any]) -> UiSession:
    return UiSession(**{k: native(v) for k, v in node.items()})


def create(db: Database, *, id_hash: str, key_id: str, tenant: str, now: datetime, expires_at: datetime) -> UiSession:
    """Store a new session (by the hash of its id)."""
    rows = db.query(CREATE_UI_SESSION, write=True, id_hash=id_hash, key_id=key_id, tenant=tenant, now=now,
                    expires_at=expires_at)
    return _session(rows[0]["session"])


def find(db: Database, id_hash: str) -> tuple[UiSession, ApiKey | None] | None:
    """The session and the key it acts with (None when the key is gone), or None."""
    rows = db.query(READ_UI_SESSION, id_hash=id_hash)
    if not rows:
        return None
    key = rows[0]["key"]
    return _session(rows[0]["session"]), key_of(key) if key is not None else None


def touch(db: Database, id_hash: str, now: datetime) -> None:
    """Note the session's use at `now` (its idle time starts again)."""
    db.query(TOUCH_UI_SESSION, write=True, id_hash=id_hash, now=now)


def revoke(db: Database, id_hash: str, now: datetime) -> bool:
    """End one session; whether it existed."""
    return db.query(REVOKE_UI_SESSION, write=True, id_hash=id_hash, now=now)[0]["revoked"] > 0


def revoke_for_key(db: Database, key_id: str, now: datetime) -> int:
    """End every open session of a key; how many were open."""
    return db.query(REVOKE_UI_SESSIONS, write=True, key_id=key_id, now=now)[0]["revoked"]


def purge(db: Database, now: datetime, limit: int = 1000) -> int:
    """Delete up to `limit` sessions past their absolute end; how many went."""
    return db.query(PURGE_UI_SESSIONS, write=True, now=now, limit=limit)[0]["purged"]
