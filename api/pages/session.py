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

from credo.api.principal import presented_key as headers_key
from credo.schema.api_keys import Principal
from credo.schema.errors import CsrfRefused

COOKIE = "credo_key"
COOKIE_PATH = "/ui"


def presented_key(request: Request) -> str | None:
    """The key of the request: X-API-Key, else a bearer token, else the login cookie."""
    return headers_key(request.headers) or request.cookies.get(COOKIE)


def principal(request: Request) -> Principal:
    """Who the page acts as (resolved by the runtime, as for REST and MCP); Unauthenticated (401) without a valid key."""
    return request.app.state.runtime.principal(presented_key(request))


def store_of(request: Request) -> Any:
    """The caller's Store: the key's tenant, clearance, scopes and acting key (the same handle the REST routes use)."""
    runtime = request.app.state.runtime
    return runtime.store_for(principal(request))


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
