"""What changed in what we believe: the belief diff between two known times as an inspector page (server-rendered,
no script) and its JSON twin. `since` defaults to a week ago and `until` to now."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from credo.api.inspector.read_pages import _page
from credo.api.inspector.session import store_of
from credo.api.inspector.views import DiffView
from credo.api.render import change_text

router = APIRouter(prefix="/ui", include_in_schema=False)
DEFAULT_SPAN = timedelta(days=7)


def diff_view(store: Any, *, since: str | None, until: str | None, subject: str | None) -> DiffView:
    """The changes of belief between `since` (excluded) and `until` (included), about `subject` when one is named."""
    now = datetime.now(timezone.utc)
    found = store.diff(since or now - DEFAULT_SPAN, until or now, subject=subject or None)
    return DiffView(since=since or None, until=until or None, subject=subject or None, diff=found)


@router.get("/diff.json", response_model=DiffView)
def diff_json(request: Request, since: str | None = None, until: str | None = None,
              subject: str | None = None) -> DiffView:
    """The page as JSON."""
    return diff_view(store_of(request), since=since, until=until, subject=subject)


@router.get("/diff", response_class=HTMLResponse)
def diff_page(request: Request, since: str | None = None, until: str | None = None,
              subject: str | None = None) -> Response:
    """What changed in what we believe between two known times: each change, oldest first, with before and after,
    the reason or the cause; a forgotten fact as a tombstone."""
    return _page(request, "diff.html", lambda s: diff_view(s, since=since, until=until, subject=subject),
                 since=since or "", until=until or "", subject=subject or "", describe=change_text)
