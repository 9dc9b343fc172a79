"""Who a page request acts as: the API key from the login cookie (HttpOnly, SameSite=Strict) or the usual headers.

Every form that writes carries a CSRF token derived from the key itself (HMAC), so a page of another site, which
cannot read the HttpOnly cookie, cannot forge it; no server-side session state is kept.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from fastapi import Request

from credo.schema.api_keys import Principal
from credo.schema.errors import CsrfRefused
from credo.services import api_keys

COOKIE = "credo_key"
COOKIE_PATH = "/ui"


def presented_key(request: Request) -> str | None:
    """The key of the request: X-API-Key, else a bearer token, else the login cookie."""
    auth = request.headers.get("authorization", "")
    bearer = auth[7:].strip() if auth.lower().startswith("bearer ") else None
    return request.headers.get("x-api-key") or bearer or request.cookies.get(COOKIE)


def principal(request: Request) -> Principal:
    """Who the page acts as; Unauthenticated (401) without a valid key."""
    runtime = request.app.state.runtime
    if not runtime.auth:
        return Principal(tenant=runtime.settings.tenant, clearance="all")
    return api_keys.authenticate(runtime.db, presented_key(request))


def store_of(request: Request) -> Any:
    """The Store of the tenant the key names (the same handle the REST routes use)."""
    return request.app.state.runtime.store.for_tenant(principal(request).tenant)


def _secret(request: Request) -> str:
    runtime = request.app.state.runtime
    if runtime.auth:
        return presented_key(request) or ""
    if not hasattr(request.app.state, "csrf_secret"):  # auth off: one random secret per process
        request.app.state.csrf_secret = secrets.token_urlsafe(32)
    return request.app.state.csrf_secret


def csrf_token(request: Request) -> str:
    """This session's CSRF token (stable for one key)."""
    return hmac.new(_secret(request).encode(), b"credo-inspector-csrf", hashlib.sha256).hexdigest()[:40]


def check_csrf(request: Request, given: str | None) -> None:
    """Refuse a write whose form lacks this session's token."""
    if not given or not hmac.compare_digest(given, csrf_token(request)):
        raise CsrfRefused("the form's CSRF token is missing or wrong; reload the page and try again")
