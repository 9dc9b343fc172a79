"""The inspector's forms that write: each checks the CSRF token (and that the browser posted it from this site), then
runs one registry operation exactly as its REST route does (`routes.run`: the command model validates, the Store
method checks the key's scope and writes), then goes back to an inspector page with a fixed message."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from credo.api.inspector.render import back, error_page, safe_path
from credo.api.inspector.session import check_csrf, store_of
from credo.api.rest.routes import run
from credo.schema.errors import CredoError
from credo.schema.operations import BY_NAME

router = APIRouter(prefix="/ui", include_in_schema=False)


async def _form(request: Request) -> dict[str, str]:
    form = await request.form()
    return {k: str(v).strip() for k, v in form.items() if str(v).strip()}


def _write(request: Request, form: dict[str, str], operation: str, fields: dict[str, Any], *, to: str,
           said: str) -> Response:
    try:
        check_csrf(request, form.get("csrf"))
        store = store_of(request)  # the caller's principal: the Store refuses (403) an operation outside its scopes
        run(request, store, BY_NAME[operation], fields, limit=None, cursor=None)
    except CredoError as error:
        return error_page(request, error)
    return back(safe_path(form.get("back"), to), said)


@router.post("/conflicts/{conflict_id}/resolve")
async def resolve(request: Request, conflict_id: str) -> Response:
    """Resolve a conflict: succession (at), correction, reject, or split scope (key=value), with a reason."""
    form = await _form(request)
    fields: dict[str, Any] = {"conflict_id": conflict_id, "decision": form.get("decision", "")}
    if form.get("at"):
        fields["at"] = form["at"]
    if form.get("reason"):
        fields["reason"] = form["reason"]
    if form.get("scope"):
        key, _, value = form["scope"].partition("=")
        fields["scope"] = {key.strip(): value.strip()}
    return _write(request, form, "resolve_conflict", fields, to="/ui/queues",
                  said="resolved")


@router.post("/facts/{fact_id}/reverify")
async def reverify(request: Request, fact_id: str) -> Response:
    """Close a re-verification: holds, lapsed or retracted (with a note)."""
    form = await _form(request)
    fields: dict[str, Any] = {"fact_id": fact_id, "outcome": form.get("outcome", "holds")}
    if form.get("note"):
        fields["note"] = form["note"]
    return _write(request, form, "reverify", fields, to="/ui/queues",
                  said="reverified")


@router.post("/facts/{fact_id}/admit")
async def admit(request: Request, fact_id: str) -> Response:
    """Admit a candidate, naming who admits it."""
    form = await _form(request)
    return _write(request, form, "admit", {"fact_id": fact_id, "by": form.get("by", "")}, to="/ui/queues",
                  said="admitted")


@router.post("/facts/{fact_id}/reject")
async def reject(request: Request, fact_id: str) -> Response:
    """Reject a candidate with a reason."""
    form = await _form(request)
    return _write(request, form, "reject", {"fact_id": fact_id, "reason": form.get("reason", "")}, to="/ui/queues",
                  said="rejected")
