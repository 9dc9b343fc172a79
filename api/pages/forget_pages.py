"""Forgetting from the inspector: a confirmation naming what will be reached, one click, then the residue report
of `verify_forgotten`, place by place, refreshed until it says complete."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from credo.api.pages.read_pages import _page
from credo.api.pages.render import back, error_page
from credo.api.pages.session import check_csrf, principal, store_of
from credo.api.pages.views import ForgetPreview
from credo.api.rest.routes import run
from credo.schema.errors import CredoError, InvalidInput
from credo.schema.forget import ResidueReport
from credo.schema.operations import BY_NAME

router = APIRouter(prefix="/ui", include_in_schema=False)


def preview(store: Any, target_id: str, entity: str | None = None) -> ForgetPreview:
    """What forgetting the target reaches, read through the ordinary reads (nothing is written)."""
    if target_id.startswith("f_"):
        versions = store.history(target_id)
        summaries = [s for s in store.summaries(states=["active", "stale", "deprecated"])
                     if any(t.ref_id == target_id for t in s.trace)]
        receipts = store.tasks_served(target_id) if hasattr(store, "tasks_served") else []
        reached = [f"{len(versions)} version(s) of “{versions[-1].statement}”",
                   *[f"summary “{s.topic}” (rebuilt without it)" for s in summaries],
                   f"{len(receipts)} read receipt(s)", "its quotes in every index (full text, vectors)",
                   "the content in ledger details (the events stay, naming the id)"]
        return ForgetPreview(target_id=target_id, kind="fact", title=versions[-1].statement, reached=reached)
    if target_id.startswith("e_") and entity:
        facts = {f.fact_id: f.statement for f in store.entity_versions(entity)}
        return ForgetPreview(target_id=target_id, kind="entity", title=entity,
                             reached=[f"the entity {entity!r}, its aliases", *[f"fact “{s}”" for s in facts.values()]])
    if target_id.startswith("s_"):
        return ForgetPreview(target_id=target_id, kind="source", title=target_id,
                             reached=["the source's text", "every quote taken from it, in every index"])
    raise InvalidInput("target", "must be a fact (f_…), an entity (e_… with its name) or a source (s_…) id")


def _call(request: Request, store: Any, operation: str, fields: dict[str, Any]) -> Any:
    op = BY_NAME.get(operation)
    if op is not None:  # the registry's operation, exactly as REST runs it
        return run(request, store, op, fields, limit=None, cursor=None)
    return getattr(store, operation)(**fields)  # not registered on this server yet: the Store method itself


@router.get("/forget", response_class=HTMLResponse)
def confirm(request: Request, target: str, entity: str | None = None) -> Response:
    """The confirmation: what will be reached, one button."""
    return _page(request, "forget_confirm.html", lambda s: preview(s, target, entity), entity=entity or "")


@router.get("/forget.json", response_model=ForgetPreview)
def confirm_json(request: Request, target: str, entity: str | None = None) -> ForgetPreview:
    """The confirmation as JSON."""
    return preview(store_of(request), target, entity)


@router.post("/forget")
async def forget(request: Request) -> Response:
    """Forget the target (its content leaves every place; a tombstone stays), then show the residue report."""
    form = {k: str(v).strip() for k, v in (await request.form()).items()}
    target = form.get("target", "")
    try:
        check_csrf(request, form.get("csrf"))
        store = store_of(request)
        actor = f"inspector:{principal(request).tenant}"
        _call(request, store, "forget", {"target_id": target, "reason": form.get("reason", ""), "actor": actor})
    except CredoError as error:
        return error_page(request, error)
    return back(f"/ui/forget/{target}", f"{target} forgotten")


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
