"""What every answer of the service carries, and the redirects no request can steer.

- `SecurityHeadersMiddleware` (pure ASGI, the outermost layer, so REST, the inspector, /mcp, /health, refusals and
  404s alike): a Content-Security-Policy that allows no inline script (nor inline style) and no framing, nosniff, a
  referrer policy, and `Cache-Control: no-store` (the inspector's static files: `no-cache`, revalidated). An answer
  that sets its own policy keeps it (the API docs, whose one inline script is allowed by its hash).
- `RelativeSlashRedirect`: a path that matches a route only with (or without) its trailing slash is redirected with
  a relative Location, so the Host header a request carries is never reflected.
- `add_docs`: /docs and /redoc as FastAPI draws them, each with the policy its page needs.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.routing import Match, get_route_path

STATIC_PREFIX = "/ui/static/"
CSP = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
    "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
])
HEADERS: dict[str, str] = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # a same-origin form still sends its Origin (the inspector's login checks it)
    "cache-control": "no-store",
}


def security_headers(path: str) -> dict[str, str]:
    """The headers an answer at `path` carries (static assets may be cached, but are revalidated)."""
    return HEADERS | ({"cache-control": "no-cache"} if path.startswith(STATIC_PREFIX) else {})


class SecurityHeadersMiddleware:
    """Pure ASGI (streaming-safe): every HTTP answer gets the security headers it does not set itself."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [(k.encode(), v.encode()) for k, v in security_headers(scope.get("path", "")).items()]

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {k.lower() for k, _ in headers}
                message["headers"] = headers + [(k, v) for k, v in extra if k not in present]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RelativeSlashRedirect:
    """The router's default answer: a path that matches a route once its trailing slash is removed (or added) is
    redirected there (307) with a relative Location; anything else goes on to `fallback` (404)."""

    def __init__(self, router: Any, fallback: Any) -> None:
        self.router = router
        self.fallback = fallback

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and get_route_path(scope) != "/":
            path = scope["path"]
            flipped = dict(scope, path=path.rstrip("/") if path.endswith("/") else path + "/")
            if any(route.matches(flipped)[0] is not Match.NONE for route in self.router.routes):
                raw = scope.get("raw_path") or path.encode()
                raw = raw.rstrip(b"/") if raw.endswith(b"/") else raw + b"/"
                location = "/" + raw.decode("latin-1").lstrip("/")  # one leading slash: never `//host`
                query = scope.get("query_string", b"").decode("latin-1")
                await RedirectResponse(location + (f"?{query}" if query else ""), status_code=307)(scope, receive, send)
                return
        await self.fallback(scope, receive, send)


def relative_slash_redirects(app: FastAPI) -> None:
    """Replace the router's own trailing-slash redirect (an absolute URL built from the Host header)."""
    router = app.router
    router.redirect_slashes = False
    router.default = RelativeSlashRedirect(router, router.default)


# -- the API docs ------------------------------------------------------------------------------------------------------
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)
_CDN = "https://cdn.jsdelivr.net"


def _docs_policy(page: str) -> str:
    """The page's policy: its scripts from the CDN, and its inline scripts by their sha256 (never 'unsafe-inline')."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                      for s in _INLINE_SCRIPT.findall(page))
    return "; ".join([
        "default-src 'none'", f"script-src 'self' {_CDN} {hashes}".strip(),
        f"style-src 'self' {_CDN} https://fonts.googleapis.com 'unsafe-inline'", "font-src https://fonts.gstatic.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly", "connect-src 'self'",
        "worker-src blob:", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
    ])


def _with_policy(page: HTMLResponse) -> HTMLResponse:
    text = bytes(page.body).decode()
    return HTMLResponse(text, headers={"content-security-policy": _docs_policy(text)})


def add_docs(app: FastAPI) -> None:
    """/docs (Swagger UI), its OAuth2 redirect and /redoc, as FastAPI draws them, each under its own policy (create
    the app with docs_url=None, redoc_url=None)."""
    openapi, redirect = app.openapi_url or "/openapi.json", "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    def swagger() -> HTMLResponse:
        return _with_policy(get_swagger_ui_html(openapi_url=openapi, title=f"{app.title} - Swagger UI",
                                                oauth2_redirect_url=redirect))

    @app.get(redirect, include_in_schema=False)
    def swagger_redirect() -> HTMLResponse:
        return _with_policy(get_swagger_ui_oauth2_redirect_html())

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return _with_policy(get_redoc_html(openapi_url=openapi, title=f"{app.title} - ReDoc"))
