"""The composition root of the service: settings → driver → Store → FastAPI app, closed in the lifespan.

`create_app()` builds everything; `mounts` lets other surfaces (the MCP server's streamable-HTTP app) join the
same app: each mount is called with (app, runtime) once the app exists and may return an async context manager
(its lifespan), which the app enters after the runtime opens and exits before it closes.

For a mounted surface: `runtime.principal(key)` gives the Principal (tenant, clearance, scopes, acting key) and
`runtime.store_for(principal)` its Store — the only two calls a surface makes; `credo.api.problems.problem_for(exc)`
the error's code.
`credo serve` mounts `credo.api.mcp.http.mcp_mount(app, runtime)`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from credo.api.inspector import answers_html, problem_page
from credo.api.inspector import install as install_pages
from credo.api.problems import PROBLEM_MEDIA_TYPE, Problem, problem_for
from credo.api.rest.hardening import SecurityHeadersMiddleware, add_docs, relative_slash_redirects, security_headers
from credo.api.rest.routes import add_body_schemas, add_routes, problem_responses
from credo.graph.core.db import Database
from credo.schema.api_keys import Principal
from credo.api.rest.limits import BodyLimit
from credo.schema.command_base import refusal, rule_of
from credo.schema.errors import CredoError, InvalidInput, RateLimited
from credo.services.access import api_keys
from credo.services.access import ui_sessions
from credo.settings import Settings
from credo.store import Store

log = logging.getLogger("credo.api")
Mount = Callable[[FastAPI, "Runtime"], Any]


@dataclass
class Runtime:
    """What the app holds for its lifetime: settings, the one driver, the base Store, the LLM adapters."""

    settings: Settings
    db: Database | None = None
    store: Store | None = None
    extractor: Any = None
    summarizer: Any = None
    owns_db: bool = True
    embedder: Any = "default"
    closers: list[Callable[[], None]] = field(default_factory=list)

    @property
    def auth(self) -> bool:
        """Whether API keys are required (CREDO_AUTH=off only for local development)."""
        return self.settings.auth

    def open(self) -> None:
        """Connect (and migrate) unless a driver was handed in; build the store and the adapters from settings
        (the one composition root, credo/bootstrap.py: embedder, key store, crypto mode)."""
        from credo.bootstrap import open_database, open_store

        if self.db is None:
            self.db = open_database(self.settings, start=False)
            self.owns_db = True
        if self.store is None:
            self.store = open_store(self.settings, self.db, embedder=self.embedder, owns_db=False)
        if self.summarizer is None:
            self.summarizer = _default_summarizer(self.settings, self.closers)

    def store_for(self, principal: Principal) -> Store:
        """The store handle of one caller: its tenant, clearance, scopes and acting key (sharing the one driver)."""
        assert self.store is not None, "the app's lifespan opens the runtime before any request"
        return self.store.for_principal(principal)

    def principal(self, presented: str | None) -> Principal:
        """Who a request presenting this API key acts as (every surface asks here): the key's principal, or with
        CREDO_AUTH=off the configured tenant as the server's process user; Unauthenticated otherwise."""
        if not self.auth:
            return Principal.local(self.settings.tenant)
        assert self.db is not None, "the app's lifespan opens the runtime before any request"
        return api_keys.authenticate(self.db, presented)

    def session_principal(self, session_id: str | None) -> Principal:
        """Who an inspector session acts as: its API key's principal, the same one `principal` gives for that key,
        checked on every request (Unauthenticated once the session is unknown, logged out, expired, idle too long,
        or its key revoked); with CREDO_AUTH=off the configured tenant, as for `principal`."""
        if not self.auth:
            return Principal.local(self.settings.tenant)
        assert self.db is not None, "the app's lifespan opens the runtime before any request"
        return ui_sessions.resolve(self.db, session_id, idle_s=self.settings.ui_session_idle_s)

    def close(self) -> None:
        """Close the adapters and (when owned) the driver."""
        for closer in reversed(self.closers):
            closer()
        if self.db is not None and self.owns_db:
            self.db.close()

    def extras_for(self, operation: str) -> dict[str, Any]:
        """Runtime dependencies an operation takes besides its command (the extractor, the summarizer)."""
        if operation == "extract":
            return {"extractor": self.extractor or _configured_extractor(self.settings, self.closers)}
        if operation == "rebuild":
            return {"summarizer": self.summarizer}
        if operation == "reflect":  # the configured extractor when one is composed; else reflection's own proposer
            configured = self.settings.llm_base_url and self.settings.llm_model
            return {"extractor": self.extractor or (_configured_extractor(self.settings, self.closers)
                                                    if configured else None)}
        return {}


def _default_summarizer(settings: Settings, closers: list) -> Any:
    from credo.services.adapters.summarizers import ChatSummarizer, ListSummarizer

    if settings.llm_base_url and settings.llm_model:
        from credo.services.adapters.llm_client import ChatClient

        client = ChatClient(settings)
        closers.append(client.close)
        return ChatSummarizer(client)
    return ListSummarizer()


def _configured_extractor(settings: Settings, closers: list) -> Any:
    from credo.services.adapters.extractors import OpenAIExtractor

    extractor = OpenAIExtractor(settings)  # ConfigError (503 not_configured) without CREDO_LLM_*
    closers.append(extractor.close)
    return extractor


class Health(BaseModel):
    """The service answers and its database does; whether its embedder is ready (a write or search that embeds
    waits for it while it is `preparing`)."""

    status: str
    database: str
    auth: bool
    embedder: Literal["ready", "preparing", "off", "failed"]


def embedder_state(choice: Any) -> str:
    """The /health word for the app's embedder: off (none), the default's readiness, or ready (one handed in)."""
    if choice is None:
        return "off"
    if choice != "default":
        return "ready"
    from credo.services.adapters.embeddings import readiness

    return "preparing" if readiness.state in ("cold", "preparing") else readiness.state


def _problem_response(problem: Problem, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(problem.model_dump(), status_code=problem.status, media_type=PROBLEM_MEDIA_TYPE,
                        headers=headers)


def _request_id(request: Request) -> str | None:
    return getattr(request.state, "request_id", None)


def install_error_handlers(app: FastAPI) -> None:
    """Every error answers an RFC 9457 problem document from the one table in api/problems.py."""

    @app.exception_handler(CredoError)
    async def credo_error(request: Request, exc: CredoError) -> JSONResponse:
        problem = problem_for(exc, request_id=_request_id(request))
        if problem.status >= 500:
            log.error("request %s failed: %s", problem.request_id, exc, exc_info=problem.status == 500)
        headers = {"WWW-Authenticate": 'Bearer realm="credo"'} if problem.status == 401 else None
        if isinstance(exc, RateLimited):
            headers = {"Retry-After": str(exc.retry_after)}
        return _problem_response(problem, headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _problem_response(problem_for(request_refusal(exc), request_id=_request_id(request)))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        problem = Problem(type=f"urn:credo:problem:{code}", title=str(exc.detail), status=exc.status_code,
                          detail=str(exc.detail), code=code, request_id=_request_id(request))
        if answers_html(request.url.path):  # an unknown inspector page: a page saying so, not JSON
            return problem_page(request, problem)
        return _problem_response(problem, getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        problem = problem_for(exc, request_id=_request_id(request))
        log.exception("request %s failed", problem.request_id)
        # answered outside the middleware stack (Starlette's ServerErrorMiddleware): the headers are added here
        return _problem_response(problem, security_headers(request.url.path))


def request_refusal(exc: RequestValidationError) -> InvalidInput:
    """FastAPI's first validation error as one InvalidInput naming what the caller sent: the query or path
    parameter by its name, a body field by its path in the body (`rows.0.subject`), a body that is no JSON as `body`."""
    errors = list(exc.errors())
    if not errors:
        return InvalidInput("request", "invalid request")
    first = errors[0]
    if first.get("type") == "json_invalid":
        reason = (first.get("ctx") or {}).get("error", "invalid JSON")
        return InvalidInput("body", f"is not valid JSON ({reason})")
    where, *_ = tuple(first.get("loc", ())) or ("request",)
    if where not in ("body", "query", "path", "header", "cookie"):  # no source named: the location is the field
        return refusal(errors)
    # the errors of the same source, located inside it (`rows.0.subject`, not `body.rows.0.subject`)
    inside = [dict(e, loc=tuple(e.get("loc", ()))[1:]) for e in errors if tuple(e.get("loc", ()))[:1] == (where,)]
    if where == "body" and not inside[0]["loc"]:  # the body as a whole (not an object, or missing)
        return InvalidInput("body", rule_of(inside[0]))
    return refusal(inside, exc.body if where == "body" else None)


class RequestIdMiddleware:
    """Pure ASGI (streaming-safe): every HTTP request gets an id, echoed as X-Request-ID and in problems."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")[:100]
        request_id = given or uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id

        async def send_with_id(message: dict) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", []).append((b"x-request-id", request_id.encode("latin-1")))
            await send(message)

        await self.app(scope, receive, send_with_id)


def host_allowed(host: str, patterns: Sequence[str]) -> bool:
    """Whether a Host header matches one of the allowed patterns (`name:*` admits any port, and no port)."""
    for pattern in patterns:
        if pattern.endswith(":*"):
            base = pattern[:-2]
            if host == base or host.startswith(base + ":"):
                return True
        elif host == pattern:
            return True
    return False


class AllowedHostMiddleware:
    """Pure ASGI: without auth, refuse (421) a Host header outside the allow-list, so a web page that rebinds its
    name to 127.0.0.1 cannot use a key-less development server (DNS rebinding); /mcp applies the same list."""

    def __init__(self, app: Any, patterns: Sequence[str]) -> None:
        self.app = app
        self.patterns = list(patterns)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if host_allowed(host, self.patterns):
            await self.app(scope, receive, send)
            return
        body = json.dumps({"type": "urn:credo:problem:host_not_allowed", "title": "Host not allowed",
                           "status": 421, "code": "host_not_allowed",
                           "detail": f"Host {host!r} is not in CREDO_MCP_ALLOWED_HOSTS (required while CREDO_AUTH=off)"})
        await send({"type": "http.response.start", "status": 421,
                    "headers": [(b"content-type", b"application/problem+json")]})
        await send({"type": "http.response.body", "body": body.encode()})


def create_app(
    settings: Settings | None = None, *, db: Database | None = None, embedder: Any = "default",
    extractor: Any = None, summarizer: Any = None, mounts: Sequence[Mount] = (),
) -> FastAPI:
    """The service app: REST under /v1, GET /health, /openapi.json and /docs, the inspector under /ui; `mounts` join
    the same lifespan. Every answer carries the security headers (api/rest/hardening.py)."""
    runtime = Runtime(settings=settings or Settings(), db=db, owns_db=db is None, embedder=embedder,
                      extractor=extractor, summarizer=summarizer)
    joined: list[Any] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        runtime.open()
        if runtime.embedder == "default":  # loaded in the background: the server answers at once, and the first
            from credo.services.adapters.embeddings import readiness  # request that embeds does not pay for the model

            readiness.start()
        if not runtime.auth:
            log.warning("CREDO_AUTH=off: EVERY REQUEST ACTS IN TENANT %r WITHOUT A KEY. Local development only; "
                        "never expose this server.", runtime.settings.tenant)
        try:
            async with contextlib.AsyncExitStack() as stack:
                for ctx in joined:
                    await stack.enter_async_context(ctx)
                yield
        finally:
            if runtime.embedder == "default":  # a process that exits while a thread loads native code aborts
                from credo.services.adapters.embeddings import readiness

                readiness.wait()
            runtime.close()

    app = FastAPI(title="Credo", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="A temporal knowledge store: bitemporal facts, the write gate, premises and cascade.")
    app.state.runtime = runtime
    install_error_handlers(app)
    relative_slash_redirects(app)
    add_docs(app)
    app.add_middleware(BodyLimit, max_bytes=runtime.settings.max_body_bytes,  # inside the request id's
                       bulk_bytes=runtime.settings.max_bulk_body_bytes)
    app.add_middleware(RequestIdMiddleware)
    if not runtime.settings.auth:
        app.add_middleware(AllowedHostMiddleware, patterns=runtime.settings.mcp_allowed_hosts)
    app.add_middleware(SecurityHeadersMiddleware)  # the last added is the outermost: every answer passes it

    @app.get("/health", response_model=Health, tags=["health"], responses=problem_responses(503))
    def health() -> Health:
        """The service answers; the database check runs a one-row query; `embedder` says whether it is ready."""
        assert runtime.db is not None
        runtime.db.server_info()
        return Health(status="ok", database="up", auth=runtime.auth, embedder=embedder_state(runtime.embedder))

    add_routes(app.router)
    add_body_schemas(app)
    install_pages(app)
    for mount in mounts:
        ctx = mount(app, runtime)
        if ctx is not None:
            joined.append(ctx)
    return app
