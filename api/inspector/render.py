"""Jinja2 rendering of the inspector's pages (autoescaped) and the answer shapes shared by its routes.

What a URL may steer is bounded here: a redirect goes only to an inspector path (`safe_path`), and the one line a
page shows after a write is one of FLASH's fixed messages, chosen by its code (`?flash=resolved`), never text taken
from the URL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from credo.api.inspector.session import COOKIE, csrf_token, drop_session_cookie
from credo.api.problems import Problem, problem_for
from credo.schema.errors import CredoError, Unauthenticated
from credo.schema.uri import linkable

_ENV = Environment(loader=FileSystemLoader(Path(__file__).with_name("templates")),
                   autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
_ENV.tests["linkable"] = linkable  # `{% if s.uri is linkable %}`: http(s) and mailto links only, else text

HOME = "/ui/entities"
FLASH: dict[str, str] = {
    "resolved": "The conflict was resolved.",
    "reverified": "The re-verification was recorded.",
    "admitted": "The candidate was admitted.",
    "rejected": "The candidate was rejected.",
    "forgotten": "Forgotten. The report below checks every place that held it.",
    "logged_out": "You are logged out.",
    "review_approved": "Approved: recorded as a person's verdict.",
    "review_rejected": "Rejected: recorded as a person's verdict.",
    "review_edited": "Corrected and approved: recorded as a person's verdict.",
}


def safe_path(target: str | None, default: str = HOME) -> str:
    """`target` when it is a path of the inspector on this site (`/ui`, `/ui/...`), else `default`: never another
    site (`//host`, `https://...`, `/\\host`), never a dot segment (plain or percent-encoded) that would lead out
    of /ui, never a header-breaking or invisible character."""
    if not target or any(c in target for c in "\\\r\n\t") or any(ord(c) < 0x20 or ord(c) == 0x7F for c in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or target.startswith("//"):
        return default
    if parts.path != "/ui" and not parts.path.startswith("/ui/"):
        return default
    if any(unquote(segment) in (".", "..") for segment in parts.path.split("/")):
        return default  # a browser resolves dot segments: "/ui/../v1/audit" would leave the inspector
    return target


def flash_text(code: str | None) -> str | None:
    """The fixed message of a flash code; None for an unknown one (a URL cannot make a page say anything else)."""
    return FLASH.get(code or "")


def html(request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
    """A page rendered with the request's CSRF token and flash message."""
    values.setdefault("csrf", csrf_token(request))
    values.setdefault("flash", flash_text(request.query_params.get("flash")))
    return HTMLResponse(_ENV.get_template(template).render(request=request, **values), status_code=status)


def to_login(request: Request) -> RedirectResponse:
    """To the login form, coming back here afterwards; a session cookie that no longer works is dropped."""
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    answer = RedirectResponse(f"/ui/login?next={quote(safe_path(here), safe='')}", status_code=303)
    if COOKIE in request.cookies:
        drop_session_cookie(answer, request)
    return answer


def error_page(request: Request, error: CredoError) -> HTMLResponse | RedirectResponse:
    """A refused or failed page request: the login form for a missing or ended session, else the problem as a page."""
    if isinstance(error, Unauthenticated):
        return to_login(request)
    problem = problem_for(error, request_id=getattr(request.state, "request_id", None))
    return problem_page(request, problem)


def problem_page(request: Request, problem: Problem) -> HTMLResponse:
    """A problem document as a page (its status kept)."""
    return html(request, "problem.html", status=problem.status, problem=problem, csrf="")


def back(to: str, flash: str) -> RedirectResponse:
    """After a write: back to an inspector page with one of FLASH's messages (303, so a reload does not re-post)."""
    assert flash in FLASH, f"unknown flash code {flash!r}"
    target = safe_path(to)
    sep = "&" if "?" in target else "?"
    return RedirectResponse(f"{target}{sep}flash={flash}", status_code=303)
