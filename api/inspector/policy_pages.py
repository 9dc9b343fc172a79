"""The write policy and the transition check as inspector pages (server-rendered, no script, read-only) with their
JSON twins: the tenant's policy in force per kind of memory, as known now or at an earlier known time, with its
versions (who set each, when, what changed); and for two known times whether the writes between them were covered,
preserving and faithful. Setting a policy stays an admin's act over the CLI or REST (`credo policy set`,
`POST /v1/policy`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from credo.api.inspector.read_pages import _page
from credo.api.inspector.session import store_of
from credo.api.inspector.views import KindRow, PolicyView, TransitionView
from credo.schema.facts import MEMORY_KINDS
from credo.schema.policy import DEFAULT_TTLS, WritePolicyVersion
from credo.services.policy.rules import DEFAULTS

router = APIRouter(prefix="/ui", include_in_schema=False)
FIELDS = ("when", "invalidate", "visible")
SHOWN = 20  # versions per page of the list


def kind_rows(version: WritePolicyVersion) -> list[KindRow]:
    """Each kind under the policy: the tenant's override where it sets one, else DESIGN §9's default."""
    rows = []
    for kind in MEMORY_KINDS:
        rule, default = version.policy.rule(kind), DEFAULTS[kind]
        values = {f: getattr(rule, f) or default[f] for f in FIELDS}
        if kind == "procedural" and rule.visible is None:
            values["visible"] = "logged (surfaced when user-facing)"
        overridden = [f for f in ("earns", *FIELDS, "ttl") if getattr(rule, f) is not None]
        ttls = dict(rule.ttl or DEFAULT_TTLS) if kind == "episodic" else {}
        rows.append(KindRow(kind=kind, earns="never (no slot)" if rule.earns == "never" else default["earns"],
                            overridden=overridden, ttls=ttls, **values))
    return rows


def policy_view(store: Any, *, known_at: str | None, after: str | None = None) -> PolicyView:
    """The policy in force as known at `known_at` (default now), with its table per kind, and a page of its versions
    after the version `after` (None: from the newest)."""
    version = store.write_policy(known_at=known_at or None)
    versions = store.write_policy_versions(after=after or None, limit=SHOWN)
    return PolicyView(known_at=known_at or None, version=version, kinds=kind_rows(version), versions=versions.items,
                      after=after or None, next_after=versions.next_after)


@router.get("/policy.json", response_model=PolicyView)
def policy_json(request: Request, known_at: str | None = None, after: str | None = None) -> PolicyView:
    """The page as JSON."""
    return policy_view(store_of(request), known_at=known_at, after=after)


@router.get("/policy", response_class=HTMLResponse)
def policy_page(request: Request, known_at: str | None = None, after: str | None = None) -> Response:
    """The tenant's write policy in force: per kind who earns a slot, when, what invalidates it, who sees it, and
    the episodic TTL per workflow; its id and since when it is known; and its versions, each a link to the page as
    known then."""
    return _page(request, "policy.html", lambda s: policy_view(s, known_at=known_at, after=after),
                 known_at=known_at or "")


def transition_view(store: Any, *, known_before: str | None, known_after: str | None) -> TransitionView:
    """The transition check of the writes in (known_before, known_after]; no report until both are given."""
    report = None
    if known_before and known_after:
        report = store.check_transition(known_before, known_after)
    return TransitionView(known_before=known_before or None, known_after=known_after or None, report=report)


@router.get("/transition.json", response_model=TransitionView)
def transition_json(request: Request, known_before: str | None = None,
                    known_after: str | None = None) -> TransitionView:
    """The page as JSON."""
    return transition_view(store_of(request), known_before=known_before, known_after=known_after)


@router.get("/transition", response_class=HTMLResponse)
def transition_page(request: Request, known_before: str | None = None, known_after: str | None = None) -> Response:
    """Were the writes between two known times covered, preserving and faithful: each dimension ok or failed, with
    its findings."""
    return _page(request, "transition.html",
                 lambda s: transition_view(s, known_before=known_before, known_after=known_after),
                 known_before=known_before or "", known_after=known_after or "")
