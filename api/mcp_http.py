"""Streamable HTTP for the MCP server, mounted at `/mcp` in the FastAPI app, behind the API keys.

The key (`X-API-Key` or `Authorization: Bearer`) is checked by a pure-ASGI middleware (BaseHTTPMiddleware would
break streaming) that puts the key's tenant in the request scope; tools read it from there and nowhere else.
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

from credo.api.problems import PROBLEM_MEDIA_TYPE, problem_for
from credo.api.mcp_server import CLEARANCE_STATE, TENANT_STATE, StoreFor, build_server
from credo.api.rest.app import Runtime
from credo.schema.errors import Unauthenticated
from credo.schema.api_keys import Principal
from credo.services import api_keys
from credo.store import Store

# API key (None when absent) -> its tenant (or its Principal: tenant and clearance); None or Unauthenticated refuses
Authenticate = Callable[[str | None], "str | Principal | None"]
MCP_PATH = "/mcp"


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
        if isinstance(tenant, Principal):
            state = {**(scope.get("state") or {}), TENANT_STATE: tenant.tenant, CLEARANCE_STATE: tenant.clearance}
        else:
            state = {**(scope.get("state") or {}), TENANT_STATE: tenant}
        await self.app({**scope, "state": state}, receive, send)


async def _refuse(send: Send, refusal: Unauthenticated) -> None:
    body = json.dumps(problem_for(refusal).model_dump(mode="json")).encode()
    await send({"type": "http.response.start", "status": 401, "headers": [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()),
        (b"www-authenticate", b'Bearer realm="credo"')]})
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
    """The `create_app(mounts=[mcp_mount])` hook: /mcp behind the app's API keys, on the app's one driver."""
    def store_for(tenant: str) -> Store:
        assert runtime.store is not None, "the app's lifespan opens the runtime before any request"
        return runtime.store.for_tenant(tenant)

    def authenticate(key: str | None) -> str | Principal:
        if not runtime.auth:
            return runtime.settings.tenant
        return api_keys.authenticate(runtime.db, key)

    return mount_mcp(app, store_for, authenticate=authenticate, allowed_hosts=runtime.settings.mcp_allowed_hosts)
