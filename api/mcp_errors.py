"""Problem documents for MCP tool errors (interim: to be replaced by the one table in `api/problems.py`)."""

from __future__ import annotations

from typing import Any

from credo.schema.errors import (
    ConflictError,
    CredoError,
    DatabaseUnavailable,
    EvidenceRefused,
    InvalidInput,
    NotFound,
    TransitionRefused,
)

# most specific first: the first matching class decides
_TABLE: tuple[tuple[type[CredoError], int, str, str], ...] = (
    (EvidenceRefused, 422, "evidence_refused", "Evidence refused"),
    (InvalidInput, 422, "invalid_input", "Invalid input"),
    (NotFound, 404, "not_found", "Not found"),
    (TransitionRefused, 409, "transition_refused", "Transition refused"),
    (ConflictError, 409, "conflict", "Conflict"),
    (DatabaseUnavailable, 503, "database_unavailable", "Database unavailable"),
    (CredoError, 500, "internal", "Internal error"),
)


def problem(exc: CredoError) -> dict[str, Any]:
    """The RFC 9457 problem document of a Credo error, with `code`, `field` and `rule` where they apply."""
    status, code, title = next((s, c, t) for cls, s, c, t in _TABLE if isinstance(exc, cls))
    doc: dict[str, Any] = {"type": f"about:blank#{code}", "title": title, "status": status, "detail": exc.message,
                           "code": code}
    if isinstance(exc, InvalidInput):
        doc.update(field=exc.field, rule=exc.rule)
    return doc


def unauthenticated() -> dict[str, Any]:
    """The problem document of a call without a valid API key."""
    return {"type": "about:blank#unauthenticated", "title": "Unauthenticated", "status": 401,
            "detail": "an API key is required (X-API-Key or Authorization: Bearer)", "code": "unauthenticated"}
