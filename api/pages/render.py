"""Jinja2 rendering of the inspector's pages (autoescaped) and the answer shapes shared by its routes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from credo.api.pages.session import csrf_token
from credo.api.problems import problem_for
from credo.schema.errors import CredoError, Unauthenticated

_ENV = Environment(loader=FileSystemLoader(Path(__file__).with_name("templates")),
                   autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)


def html(request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
    """A page rendered with the request's CSRF token and flash message."""
    values.setdefault("csrf", csrf_token(request))
    values.setdefault("flash", request.query_params.get("flash"))
    return HTMLResponse(_ENV.get_template(template).render(request=request, **values), status_code=status)


def error_page(request: Request, error: CredoError) -> HTMLResponse | RedirectResponse:
    """A refused or failed page request: the login form for a missing key, else the problem as a page."""
    if isinstance(error, Unauthenticated):
        return RedirectResponse(f"/ui/login?next={request.url.path}", status_code=303)
    problem = problem_for(error, request_id=getattr(request.state, "request_id", None))
    return html(request, "problem.html", status=problem.status, problem=problem)


def back(to: str, flash: str) -> RedirectResponse:
    """After a write: back to the page, with one line saying what happened (303, so a reload does not re-post)."""
    from urllib.parse import quote

    sep = "&" if "?" in to else "?"
    return RedirectResponse(f"{to}{sep}flash={quote(flash)}", status_code=303)
