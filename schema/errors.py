"""Credo's exception tree, drawn in one place.

    CredoError
    ├── ConfigError              settings or environment unusable (no Java, bad JAVA_HOME, ...)
    ├── ProvisioningError        the local Neo4j could not be fetched, configured or started
    ├── DatabaseUnavailable      the Neo4j server does not answer (closed port, bad credentials)
    ├── MigrationError           a schema migration failed or the graph is ahead of this code
    ├── InvalidInput             a value broke a rule; names the field and the rule      (change the input)
    │   ├── EvidenceRefused      the write gate refused a quote, a pointer or an acceptance
    │   └── TooLarge             more than a surface takes in one request (send less, or in batches)
    ├── NotFound                 an id names nothing in this tenant (or another tenant's)  (check the id)
    ├── ConflictError            refused by a rule: it would change established knowledge (accept, or act first)
    │   ├── RaceLost             the write lost a race with another writer          (retry: nothing was written)
    │   └── NotCurrent           it targets a version or conflict that is not current any more (re-read)
    ├── TransitionRefused        the lifecycle table does not allow this state change     (accept the refusal)
    ├── UpstreamFailed           the LLM endpoint failed or answered nonsense          (wait, then retry)
    ├── RateLimited              a per-tenant bound on a costly call is reached; names the limit  (wait, then retry)
    ├── Unauthenticated          no API key, an unknown one or a revoked one                (present a key)
    ├── Forbidden                the key lacks the scope, or the content is above its clearance  (use another key)
    └── CsrfRefused              a page's form came without its session's CSRF token      (reload the page)

Every constructor takes the identifying data, so messages are uniform and callers can inspect it.
"""

from __future__ import annotations


class CredoError(Exception):
    """Root of every error Credo raises on purpose."""

    def __init__(self, message: str, *, detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail


class ConfigError(CredoError):
    """The settings or the environment cannot be used as given."""


class ProvisioningError(CredoError):
    """The local Neo4j could not be fetched, configured, started or stopped."""


class DatabaseUnavailable(CredoError):
    """The Neo4j server did not answer or refused the connection."""

    def __init__(self, uri: str, reason: str, *, detail: str | None = None) -> None:
        super().__init__(f"Neo4j at {uri} is unavailable: {reason}", detail=detail)
        self.uri = uri
        self.reason = reason


class MigrationError(CredoError):
    """A schema migration failed, or the graph was migrated by newer code."""


class InvalidInput(CredoError):
    """A value broke a rule; `field` and `rule` say which."""

    def __init__(self, field: str, rule: str, *, value: object = None) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule
        self.value = value


class EvidenceRefused(InvalidInput):
    """The write gate refused the evidence offered for a claim."""


class TooLarge(InvalidInput):
    """A request holds more than a surface takes at once (rows of a bulk import over HTTP); `rule` names the limit."""


class NotFound(CredoError):
    """An identifier names nothing in this tenant."""

    def __init__(self, kind: str, identifier: str) -> None:
        super().__init__(f"{kind} not found: {identifier}")
        self.kind = kind
        self.identifier = identifier


class ConflictError(CredoError):
    """A rule refused the write (it would change established knowledge); subclasses say when to retry or re-read."""

    retryable = False

    def __init__(self, identifier: str, reason: str) -> None:
        super().__init__(f"conflict on {identifier}: {reason}")
        self.identifier = identifier
        self.reason = reason


class RaceLost(ConflictError):
    """The write lost a race with a concurrent writer; nothing was written and it is safe to retry."""

    retryable = True


class NotCurrent(ConflictError):
    """The write targets a version (or conflict) that is no longer current; re-read before acting."""


class UpstreamFailed(CredoError):
    """An upstream service (the LLM endpoint) failed or answered something unusable."""



class RateLimited(CredoError):
    """A per-tenant bound on a costly call (the LLM verifier) is reached: `field` names the limit, `retry_after` the
    seconds to wait; nothing was called or written."""

    def __init__(self, field: str, rule: str, *, retry_after: int) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule
        self.retry_after = retry_after


class Unauthenticated(CredoError):
    """The request carried no API key, or one that is unknown or revoked."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Forbidden(CredoError):
    """The caller's key lacks what the operation needs: a scope (`field` names it), or the clearance to write a label."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule


class TransitionRefused(CredoError):
    """The lifecycle table has no transition from `current` to `target`."""

    def __init__(self, identifier: str, current: str, target: str) -> None:
        super().__init__(f"{identifier}: lifecycle transition {current} -> {target} is not allowed")
        self.identifier = identifier
        self.current = current
        self.target = target


class CsrfRefused(CredoError):
    """A form of the inspector that writes came without this session's CSRF token; nothing was written."""
