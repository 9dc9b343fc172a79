"""Authentication over REST: the API key (X-API-Key or Authorization: Bearer) → the Principal → the caller's Store.

The tenant always comes from the key, never from the path or body; with CREDO_AUTH=off (local development only)
every request acts in the configured tenant. Both steps are the runtime's (`Runtime.principal`, `Runtime.store_for`),
shared with MCP and the inspector, so no surface resolves a caller its own way.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from credo.schema.api_keys import Principal

# declared for the OpenAPI document (the security schemes a client sees); the key is read by `principal`
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="an API key from `credo keys create`")
_bearer = HTTPBearer(auto_error=False, description="the same API key as a bearer token")


def principal(
    request: Request,
    key: Annotated[str | None, Security(_header)] = None,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)] = None,
) -> Principal:
    """Who the request acts as; 401 (as a problem document) without a valid key."""
    presented = (key or "").strip() or (bearer.credentials.strip() if bearer else None) or None
    return request.app.state.runtime.principal(presented)


def store_for(request: Request, who: Annotated[Principal, Depends(principal)]) -> Any:
    """The Store handle of the caller: its tenant, clearance, scopes and acting key (sharing the app's one driver)."""
    return request.app.state.runtime.store_for(who)
