"""Episodic memory as an inspector page (server-rendered, no script): the episodes of an entity or a session in time
order, one keyset page at a time (the REST listing's cursor, api/pages.py), and a reflect form that posts with the
CSRF token and shows what the reflection proposes. A reflection writes nothing but its ledger event; a proposal
becomes semantic only through the gate."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from credo.api.inspector.read_pages import _page
from credo.api.inspector.render import error_page, html
from credo.api.inspector.session import check_csrf, principal, store_of
from credo.api.inspector.views import EpisodesView, ReflectView
from credo.api.inspector.write_pages import _form
from credo.api.rest.routes import run
from credo.schema.errors import CredoError
from credo.schema.operations import BY_NAME

router = APIRouter(prefix="/ui", include_in_schema=False)
SHOWN = 50  # episodes on one page; the next page follows the last one's key
WINDOW = ("entity", "session", "from_", "to")


def _window(values: dict[str, Any]) -> dict[str, str]:
    """The window's fields as given (empty ones left out)."""
    return {k: str(values[k]).strip() for k in WINDOW if values.get(k) and str(values[k]).strip()}


def episodes_view(request: Request, store: Any, window: dict[str, str], cursor: str | None) -> EpisodesView:
    """One page of the window's episodes in time order, as the caller may see them; none until an entity or a
    session is named."""
    if not (window.get("entity") or window.get("session")):
        return EpisodesView(**window)
    found = run(request, store, BY_NAME["timeline"], dict(window), limit=SHOWN, cursor=cursor)
    return EpisodesView(**window, items=found.items, next_cursor=found.next_cursor)


@router.get("/timeline.json", response_model=EpisodesView)
def episodes_json(request: Request, entity: str | None = None, session: str | None = None, from_: str | None = None,
                  to: str | None = None, cursor: str | None = None) -> EpisodesView:
    """The page as JSON."""
    window = _window({"entity": entity, "session": session, "from_": from_, "to": to})
    return episodes_view(request, store_of(request), window, cursor)


@router.get("/timeline", response_class=HTMLResponse)
def episodes_page(request: Request, entity: str | None = None, session: str | None = None, from_: str | None = None,
                  to: str | None = None, cursor: str | None = None) -> Response:
    """The episodes of an entity or a session in time order, with the reflect form."""
    window = _window({"entity": entity, "session": session, "from_": from_, "to": to})
    return _page(request, "episodes.html", lambda s: episodes_view(request, s, window, cursor), window=window)


@router.post("/reflect")
async def reflect(request: Request) -> Response:
    """Run a reflection over the window and show its proposals (nothing semantic is written; one ledger event)."""
    form = await _form(request)
    window = _window(form)
    try:
        check_csrf(request, form.get("csrf"))
        found = run(request, store_of(request), BY_NAME["reflect"], dict(window), limit=None, cursor=None)
    except CredoError as error:
        return error_page(request, error)
    return html(request, "reflect.html", view=ReflectView(**window, reflection=found), window=window,
                tenant=principal(request).tenant)
