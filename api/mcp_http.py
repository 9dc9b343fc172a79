"""Streamable HTTP for the MCP server, mounted at `/mcp` in the FastAPI app, behind the API keys.

The key (`X-API-Key` or `Authorization: Bearer`) is checked by a pure-ASGI middleware (BaseHTTPMiddleware would
break streaming) that puts the key's tenant in the request scope; tools read it from there and nowhere else.
The transport is stateless (JSON responses, no session kept in the process), so several `credo serve` processes
can sit behind one load balancer. DNS-rebinding protection checks the Host header against `allowed_hosts`.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
from fastapi import FastAPI
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from credo.api.problems import PROBLEM_MEDIA_TYPE, problem_for
from credo.api.mcp_server import TENANT_STATE, StoreFor, build_server
from credo.schema.errors import Unauthenticated

# API key (None when absent) -> its tenant; None or Unauthenticated (missing, unknown, revoked) refuses
Authenticate = Callable[[str | None], str | None]
DEFAULT_ALLOWED_HOSTS = ("127.0.0.1:*", "localhost:*", "[::1]:*")
MCP_PATH = "/mcp"


def allowed_hosts_from_env() -> list[str]:
    """`CREDO_MCP_ALLOWED_HOSTS` (comma-separated Host values, `name:*` for any port), else loopback only."""
    raw = os.environ.get("CREDO_MCP_ALLOWED_HOSTS", "")
    return [h.strip() for h in raw.split(",") if h.strip()] or list(DEFAULT_ALLOWED_HOSTS)


def api_key(scope: Scope) -> str | None:
    """The key a request carries: `X-API-Key`, else `Authorization: Bearer <key>`."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    if headers.get("x-api-key"):
        return headers["x-api-key"].strip()
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


class ApiKeyAuth:
    """Pure-ASGI middleware: 401 without a valid key; otherwise the key's tenant goes into scope state."""

    def __init__(self, app: ASGIApp, authenticate: Authenticate) -> None:
        self.app = app
        self.authenticate = authenticate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            tenant = await anyio.to_thread.run_sync(self.authenticate, api_key(scope))  # the lookup hits Neo4j
        except Unauthenticated as exc:
            await _refuse(send, exc)
            return
        if tenant is None:
            await _refuse(send, Unauthenticated("unknown API key"))
            return
        state = {**(scope.get("state") or {}), TENANT_STATE: tenant}
        await self.app({**scope, "state": state}, receive, send)


async def _refuse(send: Send, refusal: Unauthenticated) -> None:
    body = json.dumps(problem_for(refusal).model_dump(mode="json")).encode()
    await send({"type": "http.response.start", "status": 401, "headers": [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()),
        (b"www-authenticate", b'Bearer realm="credo"')]})
    await send({"type": "http.response.body", "body": body})


def mount_mcp(app: FastAPI, store_for: StoreFor, *, authenticate: Authenticate,
              allowed_hosts: Sequence[str] | None = None, server: MCPServer | None = None) -> MCPServer:
    """Serve the MCP server at `/mcp` in `app`, behind `authenticate`; its session manager runs in app's lifespan."""
    server = server or build_server(store_for)
    hosts = list(allowed_hosts) if allowed_hosts is not None else allowed_hosts_from_env()
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts,
        allowed_origins=[f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")])
    server.streamable_http_app(streamable_http_path=MCP_PATH, stateless_http=True, json_response=True,
                               transport_security=security)  # builds the session manager
    endpoint = ApiKeyAuth(StreamableHTTPASGIApp(server.session_manager), authenticate)
    app.add_route(MCP_PATH, endpoint, include_in_schema=False)
    app.add_route(MCP_PATH + "/", endpoint, include_in_schema=False)
    app.router.lifespan_context = _with_session_manager(app.router.lifespan_context, server)
    return server


def _with_session_manager(inner: Callable[[Any], Any], server: MCPServer) -> Callable[[Any], Any]:
    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[Any]:
        async with server.session_manager.run():
            async with inner(app) as state:
                yield state

    return lifespan
