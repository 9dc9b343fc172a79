"""The human review queue as an inspector page (server-rendered, no script): each pending item's candidate beside
its excerpt (the quote and the message it came from), with approve, reject and edit-and-approve forms that post with
the CSRF token and run the registry's `review` operation as the session's principal (scope curate)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from credo.api.inspector.read_pages import _page
from credo.api.inspector.session import store_of
from credo.api.inspector.views import ReviewView
from credo.api.inspector.write_pages import _form, _write
from credo.schema.pages import After

router = APIRouter(prefix="/ui", include_in_schema=False)
SHOWN = 100  # items on the page; more wait until these are decided (the page says so)
SAID = {"approve": "review_approved", "reject": "review_rejected", "edit": "review_edited"}


def review_view(store: Any) -> ReviewView:
    """The oldest pending items the caller may see, and whether more wait."""
    found = store.review_queue(page=After(None, SHOWN))
    return ReviewView(items=list(found), more=found.next_after is not None)


@router.get("/review.json", response_model=ReviewView)
def review_json(request: Request) -> ReviewView:
    """The page as JSON."""
    return review_view(store_of(request))


@router.get("/review", response_class=HTMLResponse)
def review_page(request: Request) -> Response:
    """The review queue: each candidate beside its excerpt, with a person's three decisions."""
    return _page(request, "review.html", review_view)


@router.post("/reviews/{item_id}")
async def decide(request: Request, item_id: str) -> Response:
    """Approve, reject, or edit (a corrected statement) and approve one item."""
    form = await _form(request)
    decision = form.get("decision", "")
    fields: dict[str, Any] = {"item_id": item_id, "decision": decision}
    if decision == "edit":
        fields["statement"] = form.get("statement", "")
    if form.get("reason"):
        fields["reason"] = form["reason"]
    return _write(request, form, "review", fields, to="/ui/review", said=SAID.get(decision, "review_rejected"))
