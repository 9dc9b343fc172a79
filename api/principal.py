"""Who a request acts as, read in one place for every surface over HTTP (REST, MCP, the inspector's API twins).

The key travels as `X-API-Key: <key>` or `Authorization: Bearer <key>`; `Runtime.principal(key)` turns it into the
Principal (tenant, clearance, scopes, acting key) and `Runtime.store_for(principal)` into that caller's Store.
"""

from __future__ import annotations

from collections.abc import Mapping


def presented_key(headers: Mapping[str, str]) -> str | None:
    """The API key a request carries (header names case-insensitive): `X-API-Key`, else a bearer token."""
    lowered = {k.lower(): v for k, v in headers.items()}
    if lowered.get("x-api-key", "").strip():
        return lowered["x-api-key"].strip()
    scheme, _, token = lowered.get("authorization", "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None
