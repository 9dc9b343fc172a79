"""Forgetting from the inspector: a confirmation naming what will be reached, one click, then the residue report
of `verify_forgotten`, place by place, refreshed until it says complete.

The confirmation is built from the target id alone (`Store.forget_preview`) and its button posts that same id, so
what the page names is what the button forgets; an id the tenant does not hold answers 404.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from credo.api.inspector.read_pages import _page
from credo.api.inspector.render import back, error_page
from credo.api.inspector.session import check_csrf, principal, store_of
from credo.api.rest.routes import run
from credo.schema.errors import CredoError
from credo.schema.forget import ForgetPreview, ResidueReport
from credo.schema.operations import BY_NAME

router = APIRouter(prefix="/ui", include_in_schema=False)


def preview(store: Any, target_id: str) -> ForgetPreview:
    """What forgetting the target reaches, read from its id alone (nothing is written)."""
    return store.forget_preview(target_id)


@router.get("/forget", response_class=HTMLResponse)
def confirm(request: Request, target: str) -> Response:
    """The confirmation: what will be reached, one button that forgets exactly that."""
    return _page(request, "forget_confirm.html", lambda s: preview(s, target))


@router.get("/forget.json", response_model=ForgetPreview)
def confirm_json(request: Request, target: str) -> ForgetPreview:
    """The confirmation as JSON."""
    return preview(store_of(request), target)


@router.post("/forget")
def forget(request: Request, target: str = Form(""), reason: str = Form(""), on_behalf_of: str = Form(""),
           csrf: str = Form("")) -> Response:
    """Forget the target (its content leaves every place; a tombstone stays), then show the residue report. The ledger
    records the acting key; `on behalf of` names who the curator acts for (left empty: "the curator at the inspector")."""
    try:
        check_csrf(request, csrf)
        store = store_of(request)
        behalf = on_behalf_of.strip() or "the curator at the inspector"  # the ledger names the key itself
        done = run(request, store, BY_NAME["forget"], {"target_id": target.strip(), "reason": reason.strip(),
                                                       "actor": behalf}, limit=None, cursor=None)
    except CredoError as error:
        return error_page(request, error)
    return back(f"/ui/forget/{quote(done.result.target_id, safe='')}", "forgotten")


def residue(store: Any, target_id: str) -> ResidueReport:
    """verify_forgotten: every place still holding the content."""
    return store.verify_forgotten(target_id)


@router.get("/forget/{target_id}.json", response_model=ResidueReport)
def residue_json(request: Request, target_id: str) -> ResidueReport:
    """The residue report as JSON."""
    return residue(store_of(request), target_id)


@router.get("/forget/{target_id}", response_class=HTMLResponse)
def residue_page(request: Request, target_id: str) -> Response:
    """The residue report, place by place; the page refreshes itself until it says complete."""
    return _page(request, "forget_residue.html", lambda s: residue(s, target_id))
