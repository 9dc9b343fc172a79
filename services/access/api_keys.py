"""API keys: create (the secret shown once), list, revoke, and authenticate a presented key in constant time.

A key reads `credo_<key_id>_<secret>`: the id finds the stored record, the secret (32 random bytes) is compared by
its sha256 with `hmac.compare_digest`. High-entropy secrets need no slow hash.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timezone

from credo.graph.access import api_keys as key_repo
from credo.graph.core.db import Database
from credo.schema.api_keys import ApiKey, NewApiKey, Principal, parse_scopes
from credo.schema.errors import InvalidInput, NotFound, Unauthenticated
from credo.schema.search import check_clearance
from credo.services.access import ui_sessions

PREFIX = "credo"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create_key(db: Database, *, tenant: str, clearance: str = "internal", name: str | None = None,
               scopes: list[str] | tuple[str, ...] | None = None) -> NewApiKey:
    """A new key for `tenant` with a clearance and scopes (names or presets; default the `agent` preset: read and
    write); the returned secret is the only copy."""
    if not tenant or not tenant.strip():
        raise InvalidInput("tenant", "must not be empty")
    level = check_clearance(clearance)  # a key's clearance bounds every read it makes: an unknown one is refused
    try:
        granted = parse_scopes(scopes)
    except ValueError as exc:
        raise InvalidInput("scope", str(exc)) from None
    key_id = secrets.token_hex(8)
    secret = secrets.token_urlsafe(32)
    key = key_repo.create(db, key_id=key_id, hash=_digest(secret), tenant=tenant.strip(), clearance=level,
                          scopes=list(granted), name=name, at=datetime.now(timezone.utc))
    return NewApiKey(key=key, secret=f"{PREFIX}_{key_id}_{secret}")


def list_keys(db: Database, *, tenant: str | None = None) -> list[ApiKey]:
    """Keys of one tenant, or of all tenants; never their secrets."""
    return key_repo.listed(db, tenant)


def revoke_key(db: Database, *, key_id: str) -> ApiKey:
    """Revoke a key; requests with it (and the inspector sessions it opened) answer 401 from now on."""
    at = datetime.now(timezone.utc)
    key = key_repo.revoke(db, key_id.removeprefix(f"{PREFIX}_").split("_")[0], at)
    if key is None:
        raise NotFound("api key", key_id)
    ui_sessions.revoke_key_sessions(db, key.key_id, now=at)  # its inspector logins end with it
    return key


def authenticate(db: Database, presented: str | None) -> Principal:
    """The principal of a presented key (tenant, clearance, scopes, acting key); Unauthenticated when missing,
    unknown or revoked. Every surface calls this on every request (stdio MCP on every tool call), so a revoked key
    stops working at once."""
    if not presented:
        raise Unauthenticated("an API key is required (X-API-Key or Authorization: Bearer)")
    prefix, _, rest = presented.strip().partition("_")
    key_id, _, secret = rest.partition("_")
    found = key_repo.find(db, key_id) if prefix == PREFIX and key_id and secret else None
    # compare even when nothing was found, so timing does not tell unknown ids from wrong secrets
    stored = found[1] if found else _digest("")
    matches = hmac.compare_digest(stored, _digest(secret)) and found is not None
    if not matches:
        raise Unauthenticated("unknown API key")
    key = found[0]
    if key.revoked_at is not None:
        raise Unauthenticated("this API key was revoked")
    return Principal.of_key(key)
