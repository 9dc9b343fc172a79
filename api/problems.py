"""The one mapping from Credo's error tree to RFC 9457 problem documents (REST, MCP tool errors, the client).

Every surface reads `PROBLEMS`: an error class → (HTTP status, stable `code`, title). The most specific class in
an exception's MRO wins, so a new subclass maps like its parent until it gets its own row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from credo.schema.command_base import printable
from credo.schema.errors import (
    ConfigError,
    ConflictError,
    CredoError,
    CsrfRefused,
    DatabaseUnavailable,
    EvidenceRefused,
    Forbidden,
    InvalidInput,
    MigrationError,
    NotCurrent,
    NotFound,
    ProvisioningError,
    RaceLost,
    TooLarge,
    TransitionRefused,
    Unauthenticated,
    UpstreamFailed,
    RateLimited,
)

PROBLEM_MEDIA_TYPE = "application/problem+json"


@dataclass(frozen=True)
class ProblemKind:
    """How one error class answers: HTTP status, stable code, short title, and whether a retry may succeed."""

    status: int
    code: str
    title: str
    retryable: bool = False


PROBLEMS: dict[type[CredoError], ProblemKind] = {
    CsrfRefused: ProblemKind(403, "csrf_refused", "The form's CSRF token is missing or wrong"),
    Unauthenticated: ProblemKind(401, "unauthenticated", "Missing, unknown or revoked API key"),
    Forbidden: ProblemKind(403, "forbidden", "The API key may not do this"),
    NotFound: ProblemKind(404, "not_found", "No such object in this tenant"),
    EvidenceRefused: ProblemKind(422, "evidence_refused", "The write gate refused the evidence"),
    TooLarge: ProblemKind(413, "too_large", "The request holds more than this surface takes at once"),
    InvalidInput: ProblemKind(422, "invalid_input", "A value broke a rule"),
    RaceLost: ProblemKind(409, "race_lost", "The write lost a race; nothing was written, retry", retryable=True),
    NotCurrent: ProblemKind(409, "not_current", "The target is not current any more; re-read it"),
    ConflictError: ProblemKind(409, "rule_refused", "A rule refused the write"),
    TransitionRefused: ProblemKind(409, "transition_refused", "The lifecycle does not allow this transition"),
    UpstreamFailed: ProblemKind(502, "upstream_failed", "The LLM endpoint failed", retryable=True),
    RateLimited: ProblemKind(429, "rate_limited", "A per-tenant limit is reached; wait, then retry", retryable=True),
    DatabaseUnavailable: ProblemKind(503, "database_unavailable", "The database does not answer", retryable=True),
    ConfigError: ProblemKind(503, "not_configured", "The server is not configured for this operation"),
    MigrationError: ProblemKind(503, "migration_needed", "The graph schema does not match this server"),
    ProvisioningError: ProblemKind(503, "provisioning_failed", "The database could not be provisioned"),
    CredoError: ProblemKind(500, "internal", "Credo failed unexpectedly"),
}
CODES: dict[str, type[CredoError]] = {kind.code: cls for cls, kind in PROBLEMS.items()}


class Problem(BaseModel):
    """An RFC 9457 problem document with Credo's extensions (code, field, rule, request_id)."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    field: str | None = None
    rule: str | None = None
    request_id: str | None = None
    retryable: bool = False


def kind_of(error: BaseException) -> ProblemKind:
    """The row for an error: its most specific class in the table (non-Credo errors are internal)."""
    for cls in type(error).__mro__:
        if cls in PROBLEMS:
            return PROBLEMS[cls]  # type: ignore[index]
    return PROBLEMS[CredoError]


def problem_for(error: BaseException, *, request_id: str | None = None) -> Problem:
    """The problem document for an error; internal errors do not leak their message."""
    kind = kind_of(error)
    credo = isinstance(error, CredoError) and kind.status != 500
    rule = getattr(error, "rule", None)
    if isinstance(error, TransitionRefused):
        rule = "lifecycle"
    field = getattr(error, "field", None)
    return Problem(  # text that echoes input is shown escaped where it holds a lone surrogate (no answer can carry it)
        type=f"urn:credo:problem:{kind.code}", title=kind.title, status=kind.status,
        detail=printable(error.message) if credo else "an unexpected error; the request id names it in the server log",
        code=kind.code, field=None if field is None else printable(str(field)),
        rule=None if rule is None else printable(str(rule)), request_id=request_id, retryable=kind.retryable,
    )


def error_for(problem: dict[str, Any]) -> CredoError:
    """Rebuild the Credo error a problem document describes (for `credo.Client`): same class, same fields."""
    cls = CODES.get(str(problem.get("code")), CredoError)
    error = cls.__new__(cls)
    CredoError.__init__(error, str(problem.get("detail") or problem.get("title") or "error"))
    for name in ("field", "rule"):
        if problem.get(name) is not None:
            setattr(error, name, problem[name])
    if issubclass(cls, InvalidInput):
        error.field = problem.get("field") or "input"
        error.rule = problem.get("rule") or error.message
        error.value = None
    error.request_id = problem.get("request_id")  # type: ignore[attr-defined]
    return error
