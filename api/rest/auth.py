"""Authentication: an API key (X-API-Key or Authorization: Bearer) → the tenant and clearance it grants.

The tenant always comes from the key, never from the path or body; with CREDO_AUTH=off (local development only)
every request acts in the configured tenant.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from credo.schema.api_keys import Principal
from credo.services import api_keys

_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="an API key from `credo keys create`")
_bearer = HTTPBearer(auto_error=False, description="the same API key as a bearer token")


def principal(
    request: Request,
    key: Annotated[str | None, Security(_header)] = None,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)] = None,
) -> Principal:
    """Who the request acts as; 401 (as a problem document) without a valid key."""
    runtime = request.app.state.runtime
    if not runtime.auth:
        return Principal(tenant=runtime.settings.tenant, clearance="all")
    presented = key or (bearer.credentials if bearer else None)
    return api_keys.authenticate(runtime.db, presented)


def store_for(request: Request, who: Annotated[Principal, Depends(principal)]) -> Any:
    """The Store handle of the key's tenant and clearance (sharing the app's one driver)."""
    return request.app.state.runtime.store.for_tenant(who.tenant, clearance=who.clearance)
