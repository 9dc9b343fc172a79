"""Who a page request acts as, and the checks a browser's request passes before anything is written.

A person logs in with an API key once; the inspector keeps a server-side session (`services/access/ui_sessions.py`, in
Neo4j) and the browser only its opaque id, in an HttpOnly, SameSite=Strict cookie scoped to /ui (Secure over
https). Every page request resolves the session through the runtime (`Runtime.session_principal`) to its key's
principal, so logout, expiry, idleness and a revoked key end it at once. A request may carry the key in the usual
headers instead (scripts reading the JSON twins); REST never reads the cookie.

Forms that write carry a CSRF token derived from the session id (HMAC), which a page of another site cannot read;
the login form carries a token bound to a pre-login cookie. A POST that a browser says came from another site
(Origin, Sec-Fetch-Site) is refused whatever its token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import Response

from credo.api.principal import presented_key as headers_key
from credo.schema.api_keys import Principal
from credo.schema.errors import CsrfRefused

COOKIE = "credo_session"
LEGACY_COOKIE = "credo_key"  # the raw key, as the inspector kept it before sessions: dropped wherever it is seen
LOGIN_COOKIE = "credo_login"
COOKIE_PATH = "/ui"
LOGIN_PATH = "/ui/login"
LOGIN_TOKEN_S = 3600  # how long a login form may stay open


def principal(request: Request) -> Principal:
    """Who the page acts as (resolved by the runtime, as for REST and MCP; once per request); Unauthenticated (401)
    without a valid session or key."""
    known = getattr(request.state, "credo_principal", None)
    if known is not None:
        return known
    runtime = request.app.state.runtime
    key = headers_key(request.headers)
    if key is not None or not runtime.auth:
        who = runtime.principal(key)
    else:
        who = runtime.session_principal(request.cookies.get(COOKIE))
    request.state.credo_principal = who
    return who


def store_of(request: Request) -> Any:
    """The caller's Store: the key's tenant, clearance, scopes and acting key (the same handle the REST routes use)."""
    return request.app.state.runtime.store_for(principal(request))


def secure(request: Request) -> bool:
    """Whether cookies must be `Secure`: the page was served over https (directly, or as the proxy told uvicorn)."""
    return request.url.scheme == "https"


def set_session_cookie(response: Response, request: Request, session_id: str, max_age_s: float) -> None:
    """Hand the browser its session id (and nothing else)."""
    response.set_cookie(COOKIE, session_id, max_age=int(max_age_s), httponly=True, samesite="strict",
                        path=COOKIE_PATH, secure=secure(request))
    response.delete_cookie(LOGIN_COOKIE, path=LOGIN_PATH, httponly=True, samesite="strict", secure=secure(request))
    if LEGACY_COOKIE in request.cookies:
        response.delete_cookie(LEGACY_COOKIE, path=COOKIE_PATH)


def drop_session_cookie(response: Response, request: Request) -> None:
    """Tell the browser to forget its session id (and a raw key an older inspector left in a cookie)."""
    response.delete_cookie(COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict", secure=secure(request))
    if LEGACY_COOKIE in request.cookies:
        response.delete_cookie(LEGACY_COOKIE, path=COOKIE_PATH)


# -- CSRF -------------------------------------------------------------------------------------------------------------
def _secret(request: Request) -> str:
    runtime = request.app.state.runtime
    if runtime.auth:
        return headers_key(request.headers) or request.cookies.get(COOKIE) or ""
    if not hasattr(request.app.state, "csrf_secret"):  # auth off: one random secret per process
        request.app.state.csrf_secret = secrets.token_urlsafe(32)
    return request.app.state.csrf_secret


def csrf_token(request: Request) -> str:
    """This session's CSRF token (stable for one session)."""
    return hmac.new(_secret(request).encode(), b"credo-inspector-csrf", hashlib.sha256).hexdigest()[:40]


def check_origin(request: Request) -> None:
    """Refuse a POST the browser says came from another site: an Origin other than this host (or `null`), or a
    Sec-Fetch-Site other than same-origin. Clients that send neither (scripts) are left to the token."""
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "").lower()
        if origin == "null" or urlsplit(origin).netloc.lower() != host:
            raise CsrfRefused(f"this form was posted from another site (Origin {origin[:100]!r}); nothing was done")
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise CsrfRefused(f"this form was posted from another site (Sec-Fetch-Site {site[:40]!r}); nothing was done")


def check_csrf(request: Request, given: str | None) -> None:
    """Refuse a write from another site, or whose form lacks this session's token."""
    check_origin(request)
    if not _secret(request) or not given or not hmac.compare_digest(given, csrf_token(request)):
        raise CsrfRefused("the form's CSRF token is missing or wrong; reload the page and try again")


def login_token(request: Request) -> str:
    """The login form's token: the pre-login cookie's value, or a new one (`keep_login_token` sets the cookie)."""
    return request.cookies.get(LOGIN_COOKIE) or secrets.token_urlsafe(32)


def keep_login_token(response: Response, request: Request, token: str) -> None:
    """Bind the login form to this browser: the form's token must come back beside this cookie."""
    response.set_cookie(LOGIN_COOKIE, token, max_age=LOGIN_TOKEN_S, httponly=True, samesite="strict",
                        path=LOGIN_PATH, secure=secure(request))


def check_login(request: Request, given: str | None) -> None:
    """Refuse a login posted from another site, or without the token of the form this browser was given (a page of
    another site cannot log a victim into the attacker's key)."""
    check_origin(request)
    expected = request.cookies.get(LOGIN_COOKIE)
    if not expected or not given or not hmac.compare_digest(given, expected):
        raise CsrfRefused("the login form's token is missing or wrong; reload the login page and try again")
