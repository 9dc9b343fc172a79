"""Streamable HTTP for the MCP server, mounted at `/mcp` in the FastAPI app, behind the API keys.

The key (`X-API-Key` or `Authorization: Bearer`) is checked by a pure-ASGI middleware (BaseHTTPMiddleware would
break streaming) that puts the caller's Principal (tenant, clearance, scopes, acting key; `Runtime.principal`, the
same resolution REST and the inspector use) in the request scope; tools read it from there and nowhere else.
The transport is stateless (JSON responses, no session kept in the process), so several `credo serve` processes
can sit behind one load balancer. DNS-rebinding protection checks the Host header against `allowed_hosts`
(`CREDO_MCP_ALLOWED_HOSTS`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager

import anyio.to_thread
from fastapi import FastAPI
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from credo.api.mcp.server import PRINCIPAL_STATE, StoreFor, build_server
from credo.api.principal import presented_key
from credo.api.problems import PROBLEM_MEDIA_TYPE, Problem, problem_for
from credo.api.rest.app import Runtime
from credo.schema.api_keys import Principal
from credo.schema.errors import Unauthenticated

Authenticate = Callable[[str | None], Principal]  # API key (None when absent) -> its Principal; Unauthenticated refuses
MCP_PATH = "/mcp"


def api_key(scope: Scope) -> str | None:
    """The key a request carries: `X-API-Key`, else `Authorization: Bearer <key>`."""
    return presented_key({k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])})


class ApiKeyAuth:
    """Pure-ASGI middleware: 401 without a valid key; otherwise the key's Principal goes into scope state."""

    def __init__(self, app: ASGIApp, authenticate: Authenticate) -> None:
        self.app = app
        self.authenticate = authenticate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            principal = await anyio.to_thread.run_sync(self.authenticate, api_key(scope))  # the lookup hits Neo4j
        except Unauthenticated as exc:
            await _refuse(send, exc)
            return
        if scope.get("method") != "POST":  # stateless JSON answers: no stream to GET, no session to DELETE
            await _answer(send, _NOT_ALLOWED, allow="POST")
            return
        state = {**(scope.get("state") or {}), PRINCIPAL_STATE: principal}
        await self.app({**scope, "state": state}, receive, send)


_NOT_ALLOWED = Problem(type="urn:credo:problem:method_not_allowed", title="Method not allowed", status=405,
                       code="method_not_allowed", detail="the MCP endpoint is stateless: POST its JSON-RPC requests "
                       "(there is no stream to GET and no session to DELETE)")


async def _refuse(send: Send, refusal: Unauthenticated) -> None:
    await _answer(send, problem_for(refusal), **{"www-authenticate": 'Bearer realm="credo"'})


async def _answer(send: Send, problem: Problem, **headers: str) -> None:
    body = json.dumps(problem.model_dump(mode="json")).encode()
    await send({"type": "http.response.start", "status": problem.status, "headers": [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()),
        *[(k.encode(), v.encode()) for k, v in headers.items()]]})
    await send({"type": "http.response.body", "body": body})


def mount_mcp(app: FastAPI, store_for: StoreFor, *, authenticate: Authenticate, allowed_hosts: Sequence[str],
              server: MCPServer | None = None) -> AbstractAsyncContextManager[None]:
    """Serve the MCP server at `/mcp` in `app`, behind `authenticate`; returns the lifespan the app must enter."""
    server = server or build_server(store_for)
    hosts = list(allowed_hosts)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts,
        allowed_origins=[f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")])
    server.streamable_http_app(streamable_http_path=MCP_PATH, stateless_http=True, json_response=True,
                               transport_security=security)  # builds the session manager
    endpoint = ApiKeyAuth(StreamableHTTPASGIApp(server.session_manager), authenticate)
    app.add_route(MCP_PATH, endpoint, include_in_schema=False)
    app.add_route(MCP_PATH + "/", endpoint, include_in_schema=False)
    return server.session_manager.run()


def mcp_mount(app: FastAPI, runtime: Runtime) -> AbstractAsyncContextManager[None]:
    """The `create_app(mounts=[mcp_mount])` hook: /mcp behind the app's API keys, on the app's one driver and store,
    each caller resolved and served exactly as over REST."""
    return mount_mcp(app, runtime.store_for, authenticate=runtime.principal,
                     allowed_hosts=runtime.settings.mcp_allowed_hosts)
