"""The audit ledger's models: one event, and what `verify_ledger` found.

Each event is hash-chained per tenant: `hash = sha256(canonical JSON of the event, prev_hash included)`, where the
canonical JSON is `json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=False)` over exactly the
fields `CHAINED` names, and those of `CHAINED_WHEN_SET` an event has (`at` as ISO 8601 UTC with microseconds,
`detail` as its stored JSON text). The first event
of a tenant has `prev_hash = ""`. Events hold ids and reasons, never statements, quotes or source text.

Free text (`REDACTABLE`: the reason, the detail and the claimed actor) is chained through a salted commitment stored
beside it (`<field>_commit` = `<salt>:<sha256(salt, field, value)>`): the hash covers `sha256:<digest>` in the
field's place. Forgetting redacts a field that names forgotten content by removing its value and its salt and
keeping the digest, so the chain still verifies (the event says which fields were redacted) and nobody can confirm a
guessed text against it; changing a value, its salt or its digest still breaks it. Events written before
commitments existed chain their values as such: forgetting cannot redact those.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, Field

CHAINED = ("tenant", "seq", "at", "operation", "subject_id", "ids", "actor", "reason", "detail", "prev_hash")
"""The fields the hash covers, in the canonical JSON (sorted keys)."""
CHAINED_WHEN_SET = ("on_behalf_of",)
"""Fields the hash covers only when an event has them (events written before they existed still verify)."""
REDACTABLE = ("reason", "detail", "on_behalf_of")
"""Free-text fields chained through a salted commitment, so forgetting can redact them without breaking the chain."""

CONTENT_KEYS = frozenset({"statement", "quote", "text", "content", "excerpt", "title", "premise_statement",
                          "old_content", "new_content", "hedges", "topic"})
"""Detail keys that would hold content; the ledger drops them, so it never keeps what forgetting must remove."""


def canonical_json(value: Any) -> str:
    """The one canonical JSON text (sorted keys, no spaces, UTF-8 kept) used for details and for hashing."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def instant_text(at: datetime) -> str:
    """An instant as the hash sees it: ISO 8601 in UTC with microseconds."""
    return at.astimezone(timezone.utc).isoformat(timespec="microseconds")


def _digest(salt: str, name: str, value: str) -> str:
    return hashlib.sha256(f"{salt}\n{name}\n{value}".encode("utf-8")).hexdigest()


def commitments(fields: dict[str, Any]) -> dict[str, str]:
    """`<field>_commit` for each redactable field that has a value: a fresh random salt and the digest."""
    made = {}
    for name in REDACTABLE:
        if fields.get(name) is not None:
            salt = secrets.token_hex(16)
            made[f"{name}_commit"] = f"{salt}:{_digest(salt, name, str(fields[name]))}"
    return made


def commitment_holds(fields: dict[str, Any]) -> bool:
    """Every committed field still has the value its digest names, or was redacted (value and salt gone)."""
    for name in REDACTABLE:
        commit = fields.get(f"{name}_commit")
        if not commit:
            continue
        salt, _, digest = str(commit).partition(":")
        value = fields.get(name)
        if value is None and salt:
            return False  # the value went without its salt: not a redaction
        if value is not None and (not salt or _digest(salt, name, str(value)) != digest):
            return False
    return True


def redacted(fields: dict[str, Any]) -> list[str]:
    """The free-text fields forgetting redacted from an event (their digest stays, their salt and value went)."""
    return [name for name in REDACTABLE if str(fields.get(f"{name}_commit") or "x").startswith(":")]


def event_hash(fields: dict[str, Any]) -> str:
    """sha256 (hex) of the canonical JSON of the chained fields (`at` a datetime, `detail` its JSON text; a
    committed field as `sha256:<digest>`)."""
    chained = {name: fields.get(name) for name in CHAINED}
    chained |= {name: fields[name] for name in CHAINED_WHEN_SET if fields.get(name) is not None}
    for name in REDACTABLE:
        commit = fields.get(f"{name}_commit")
        if commit:
            chained[name] = "sha256:" + str(commit).partition(":")[2]
    chained["at"] = instant_text(chained["at"])
    return hashlib.sha256(canonical_json(chained).encode("utf-8")).hexdigest()


class AuditEvent(BaseModel):
    """One ledger entry: who did what to which ids, when, and why; content-free."""

    event_id: str
    seq: int | None = None  # position in the tenant's chain (None: written before the chain existed)
    at: datetime
    operation: str
    subject_id: str | None = None
    ids: list[str] = Field(default_factory=list)  # every id the event names (subject, versions, sources, ...)
    actor: str | None = None  # who acted: the authenticated key (`key:<id>`) or the local process user (`local:<user>`)
    on_behalf_of: str | None = None  # who the caller said it acted for (a body's actor / by), as given
    reason: str | None = None
    detail: dict[str, Any] = Field(default_factory=dict)
    redacted: list[str] = Field(default_factory=list)  # free-text fields forgetting removed (they named its content)
    prev_hash: str | None = None
    hash: str | None = None


class AuditPage(BaseModel):
    """One page of the ledger in chain order; pass `next_after` as `after` for the next page (null: the last)."""

    items: list[AuditEvent]
    next_after: int | None = None


class LedgerProblem(BaseModel):
    """One place where the chain does not hold."""

    kind: Literal["changed", "inserted", "removed"]
    event_id: str | None = None  # the changed or inserted event; for a removal, the event after the gap (if any)
    seq: int | None = None  # the position concerned (for a removal: the first missing one)
    detail: str


class LedgerReport(BaseModel):
    """What `verify_ledger` found: ok only when no problem was found."""

    ok: bool
    events: int  # chained events checked
    unchained: int = 0  # events written before the chain existed (before `chain_starts_at`), not verifiable
    chain_starts_at: datetime | None = None
    head_seq: int = 0
    redacted: int = 0  # chained events with a free-text field forgetting removed (the chain still holds)
    problems: list[LedgerProblem] = Field(default_factory=list)
