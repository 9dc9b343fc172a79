"""The inspector's read pages and their JSON twins: login, entities, an entity's timeline, a fact's why, queues."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.convertors import Convertor, register_url_convertor

from credo.api.inspector import svg
from credo.api.inspector.render import HOME, error_page, html, safe_path
from credo.api.inspector.session import (
    COOKIE,
    check_csrf,
    check_login,
    drop_session_cookie,
    keep_login_token,
    login_token,
    principal,
    set_session_cookie,
    store_of,
)
from credo.api.inspector.views import EntitiesView, EntityRow, QueuesView, TimelineView, WhyView
from credo.api import pages
from credo.schema.context_package import ContextPackage
from credo.schema.errors import CredoError, Forbidden, InvalidInput, Unauthenticated
from credo.schema.time import parse_instant
from credo.services.access import ui_sessions
from credo.services.facts.timeline import ALL_STATES

router = APIRouter(prefix="/ui", include_in_schema=False)


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str | None = None) -> Response:
    """The login form: one labelled field for the API key, and a token bound to this browser (login CSRF)."""
    token = login_token(request)
    answer = html(request, "login.html", next=safe_path(next), csrf="", login_token=token, error=None)
    keep_login_token(answer, request, token)
    return answer


@router.post("/login")
def login(request: Request, api_key: str = Form(""), next: str = Form(HOME), csrf: str = Form("")) -> Response:
    """Check the form's token and the key; on success open a server-side session and give the browser its opaque id
    (HttpOnly, SameSite=Strict, scoped to /ui, Secure over https). The key itself is never kept."""
    runtime = request.app.state.runtime
    try:
        check_login(request, csrf)
    except CredoError as error:
        return error_page(request, error)
    if not runtime.auth:
        return RedirectResponse(safe_path(next), status_code=303)
    try:
        who = runtime.principal(api_key.strip())
    except Unauthenticated:
        fresh = login_token(request)
        return html(request, "login.html", status=401, next=safe_path(next), csrf="", login_token=fresh,
                    error="That key is unknown or revoked.")
    ttl = runtime.settings.ui_session_ttl_s
    ui_sessions.close_session(runtime.db, request.cookies.get(COOKIE))  # a new login ends the browser's old one
    answer = RedirectResponse(safe_path(next), status_code=303)
    set_session_cookie(answer, request, ui_sessions.open_session(runtime.db, who, ttl_s=ttl), ttl)
    return answer


@router.post("/logout")
def logout(request: Request, csrf: str = Form("")) -> Response:
    """End the session on the server (its cookie, copied or not, authenticates nothing afterwards) and drop it."""
    try:
        check_csrf(request, csrf)
    except CredoError as error:
        return error_page(request, error)
    runtime = request.app.state.runtime
    if runtime.auth:
        ui_sessions.close_session(runtime.db, request.cookies.get(COOKIE))
    answer = RedirectResponse("/ui/login?flash=logged_out", status_code=303)
    drop_session_cookie(answer, request)
    return answer


@router.get("", include_in_schema=False)
def home() -> Response:
    """The inspector starts at the entities page."""
    return RedirectResponse(HOME, status_code=303)


def _page(request: Request, template: str, build: Callable[[Any], Any], **extra: Any) -> Response:
    try:
        store = store_of(request)
        view = build(store)
    except CredoError as error:
        return error_page(request, error)
    return html(request, template, view=view, tenant=principal(request).tenant, **extra)


# -- entities and facts --------------------------------------------------------------------------------
def entities_view(store: Any, *, q: str | None, state: str | None, kind: str | None, evidence: str | None,
                  cursor: str | None, limit: int = 50) -> EntitiesView:
    """Current facts (in one state, or the served ones) whose subject or statement contains every word of q."""
    words = (q or "").casefold().split()
    states = [state] if state else None
    found = [f for f in store.facts(states=states) if all(w in f"{f.subject} {f.statement}".casefold() for w in words)]
    if words and hasattr(store, "search"):  # hybrid search (full text, vectors, graph) adds what words miss
        seen = {f.version_id for f in found}
        result = store.search(q, states=states, limit=50)
        found += [h.fact for h in result.hits if h.fact is not None and h.fact.version_id not in seen]
    hits = [f for f in found if (not kind or f.kind == kind) and (not evidence or f.evidence == evidence)]
    by_name: dict[str, list[Any]] = {}
    for f in hits:
        by_name.setdefault(f.subject, []).append(f)
    rows = [EntityRow(name=n, facts=len(fs), predicates=sorted({f.predicate for f in fs}),
                      states=sorted({f.state for f in fs})) for n, fs in sorted(by_name.items())]
    fingerprint = pages.query_hash({"q": q, "state": state, "kind": kind, "evidence": evidence})
    offset, _ = pages.decode(cursor, fingerprint) if cursor else (0, None)
    listing = pages.page(rows, offset=offset, limit=limit, pinned=None, fingerprint=fingerprint)
    names = {r.name for r in listing.items}
    return EntitiesView(q=q, state=state, kind=kind, evidence=evidence, items=listing.items,
                        facts=[f for f in hits if f.subject in names], next_cursor=listing.next_cursor)


@router.get("/entities.json", response_model=EntitiesView)
def entities_json(request: Request, q: str | None = None, state: str | None = None, kind: str | None = None,
                  evidence: str | None = None, cursor: str | None = None) -> EntitiesView:
    """The entities page as JSON."""
    return entities_view(store_of(request), q=q, state=state, kind=kind, evidence=evidence, cursor=cursor)


@router.get("/entities", response_class=HTMLResponse)
def entities_page(request: Request, q: str | None = None, state: str | None = None, kind: str | None = None,
                  evidence: str | None = None, cursor: str | None = None) -> Response:
    """Entities and facts, filtered as you type."""
    return _page(request, "entities.html", lambda s: entities_view(
        s, q=q, state=state or None, kind=kind or None, evidence=evidence or None, cursor=cursor),
        states=ALL_STATES)


# -- an entity's timeline -------------------------------------------------------------------------------
def _instant(value: str | None, field: str) -> datetime | None:
    if not value:
        return None
    try:
        return parse_instant(value, field)
    except ValueError as exc:
        raise InvalidInput(field, str(exc)) from None


def timeline_view(store: Any, entity: str, *, valid_at: str | None,
                  known_at: str | None) -> tuple[TimelineView, list[tuple[str, str]]]:
    """Every version about the entity as a rectangle, the as-of answer at the point, and one SVG per predicate."""
    versions = store.entity_versions(entity)
    now = datetime.now(timezone.utc)
    at, known = _instant(valid_at, "valid_at") or now, _instant(known_at, "known_at")
    span = svg.span_of(versions, now) if versions else (now, now, now, now)
    by_predicate: dict[str, list[Any]] = {}
    for v in versions:
        by_predicate.setdefault(v.predicate, []).append(v)
    pictures, rects = [], []
    for predicate, group in sorted(by_predicate.items()):
        drawn = svg.layout(group, span)
        rects += drawn
        pictures.append((predicate, svg.draw(drawn, span, title=f"{entity} {predicate}: versions in valid × known time",
                                                   valid_at=at, known_at=known or now)))
    answer = store.facts(entity, valid_at=at, known_at=known)
    return TimelineView(entity=entity, entity_id=versions[0].subject_id if versions else None, valid_at=at, known_at=known, rectangles=rects, as_of=list(answer)), pictures


class _EntityName(Convertor):
    """An entity's name in a page's path: it may hold "/" (CI/CD), but neither starts nor ends with one, so
    `/ui/entities/` and `/ui/entities/Acme/` are trailing-slash redirects (relative), not names."""

    regex = r"[^/](?:.*[^/])?"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("entity_name", _EntityName())


@router.get("/entities/{entity:entity_name}.json", response_model=TimelineView)
def timeline_json(request: Request, entity: str, valid_at: str | None = None, known_at: str | None = None) -> TimelineView:
    """The timeline as JSON: rectangles (SVG units) and the as-of answer."""
    return timeline_view(store_of(request), entity, valid_at=valid_at, known_at=known_at)[0]


@router.get("/entities/{entity:entity_name}", response_class=HTMLResponse)
def timeline_page(request: Request, entity: str, valid_at: str | None = None, known_at: str | None = None) -> Response:
    """An entity's timeline, with valid_at / known_at inputs and the as-of answer beside it."""
    drawn: list[tuple[str, str]] = []

    def build(store: Any) -> TimelineView:
        view, pictures = timeline_view(store, entity, valid_at=valid_at, known_at=known_at)
        drawn.extend(pictures)
        return view

    return _page(request, "timeline.html", build, drawn=drawn, valid_at=valid_at or "", known_at=known_at or "")


# -- a fact's why-view ----------------------------------------------------------------------------------
def why_view(store: Any, fact_id: str, *, known_at: str | None) -> WhyView:
    """Why the fact is held, its versions, justifications, and the summaries derived from it."""
    why = store.why(fact_id, known_at=known_at)
    summaries = [s for s in store.summaries(states=["active", "stale", "deprecated"])
                 if any(t.ref_id == fact_id for t in s.trace)]
    missing, ledger, receipts = [], [], []
    try:
        ledger = store.audit(id=fact_id, limit=200).items
    except Forbidden as refused:  # the audit ledger is an admin's read, cleared for all: the page shows the rest
        missing.append("ledger: reading the audit ledger needs clearance 'all', which this key lacks"
                       if refused.field == "clearance" else
                       "ledger: reading the audit ledger needs the 'admin' scope, which this key lacks")
    if hasattr(store, "tasks_served"):
        receipts = store.tasks_served(fact_id)
    else:
        missing.append("read receipts: this server does not record which versions were served yet")
    return WhyView(why=why, history=list(store.history(fact_id)), justifications=store.justifications(fact_id),
                   summaries=summaries, ledger=ledger, receipts=receipts, missing=missing)


@router.get("/facts/{fact_id}.json", response_model=WhyView)
def why_json(request: Request, fact_id: str, known_at: str | None = None) -> WhyView:
    """The why-view as JSON."""
    return why_view(store_of(request), fact_id, known_at=known_at)


@router.get("/facts/{fact_id}", response_class=HTMLResponse)
def why_page(request: Request, fact_id: str, known_at: str | None = None) -> Response:
    """A fact's why-view: quotes, messages, sessions, sources, premises, justifications, summaries, versions."""
    return _page(request, "fact.html", lambda s: why_view(s, fact_id, known_at=known_at))


# -- queues ---------------------------------------------------------------------------------------------
def queues_view(store: Any) -> QueuesView:
    """Open conflicts (a preference's drift item with the preference's posterior), the stale queue, candidates
    awaiting admission."""
    conflicts = store.conflicts()
    preferences = {}
    for c in conflicts:
        if c.drift is not None and c.drift.fact_id not in preferences:
            try:
                preferences[c.drift.fact_id] = store.preference(c.drift.fact_id)
            except CredoError:  # the tenant flag was turned off since: the item still shows what drifted
                pass
    return QueuesView(conflicts=conflicts, stale=store.stale(), candidates=list(store.facts(states=["candidate"])),
                      preferences=preferences)


@router.get("/queues.json", response_model=QueuesView)
def queues_json(request: Request) -> QueuesView:
    """The queues as JSON."""
    return queues_view(store_of(request))


@router.get("/queues", response_class=HTMLResponse)
def queues_page(request: Request) -> Response:
    """Conflicts with resolve buttons, stale items with re-verify buttons, candidates with admit / reject."""
    return _page(request, "queues.html", queues_view)


# -- context ---------------------------------------------------------------------------------------------
def context_view(store: Any, query: str | None, *, valid_at: str | None, budget: str | None,
                 q: str | None = None) -> ContextPackage | None:
    """The three-part context package an agent would receive for the query (no read receipt is recorded)."""
    if q is not None:  # the page's old parameter, refused as every surface refuses an old name
        raise InvalidInput("q", "renamed: pass `query` instead (the name search and context take)")
    if not query:
        return None
    tokens = int(budget) if budget and budget.isdigit() else None
    return store.context(query, valid_at=valid_at or None, budget_tokens=tokens)


@router.get("/context.json", response_model=ContextPackage)
def context_json(request: Request, query: str | None = None, valid_at: str | None = None, budget: str | None = None,
                 q: str | None = None) -> ContextPackage:
    """The context package as JSON."""
    view = context_view(store_of(request), query, valid_at=valid_at, budget=budget, q=q)
    if view is None:
        raise InvalidInput("query", "must be a question or an entity's name")
    return view


@router.get("/context", response_class=HTMLResponse)
def context_page(request: Request, query: str | None = None, valid_at: str | None = None,
                 budget: str | None = None, q: str | None = None) -> Response:
    """Type a question; see current / historical / open and the package's rendering for a prompt."""
    return _page(request, "context.html", lambda s: context_view(s, query, valid_at=valid_at, budget=budget, q=q),
                 query=query or "", valid_at=valid_at or "", budget=budget or "")
