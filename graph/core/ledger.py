"""The commit clock and the append-only, hash-chained audit ledger, shared by every write transaction.

`begin` locks the tenant's clock and reads the chain's head in the same statement, so writers of one tenant
append one after another; `finish` gives each pending event the next `seq`, links it to the previous event's
hash and stores the new head on the clock (hashing: `credo.schema.ledger`).
"""

from __future__ import annotations

import json
import re
import secrets
from datetime import datetime
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Tx
from credo.graph.core.records import native
from credo.graph.core.tx_state import SYSTEM_ACTOR
from credo.schema.errors import ConfigError
from credo.schema.ledger import CONTENT_KEYS, AuditEvent, canonical_json, commitments, event_hash, redacted
from credo.schema.time import next_tick

TICK_CLOCK = load("tick_clock")
FINISH_WRITE = load("finish_write")
FINISH_WRITE_FLAGGING = load("finish_write_flagging")
READ_AUDIT_EVENTS = load("read_audit_events")
READ_LEDGER_CHAIN = load("read_ledger_chain")
READ_LEDGER_HEAD = load("read_ledger_head")

_ID = re.compile(r"^[a-z]{1,4}_[0-9a-f]{8,}$")


def new_id(prefix: str) -> str:
    """A fresh identifier with a readable prefix (f_ fact, v_ version, e_ entity, ...)."""
    return f"{prefix}_{secrets.token_hex(10)}"  # 80 random bits, as uuid4().hex[:20] gave, at a third of its cost


def begin(tx: Tx, tenant: str, now: datetime, *, sealing: bool = False, opening: bool = False,
          key_store: str | None = None) -> datetime:
    """Lock the tenant's clock and assign this write's known time (strictly increasing); `finish` stores it.

    `sealing`: this process seals content (the clock is marked sealed, and `key_store`, the id of its key store,
    recorded the first time); `opening`: it can open sealed content (crypto mode on or read-only). A process that
    cannot open a tenant whose clock is marked sealed is refused, as is one whose key store is not the one that
    sealed it: it would write plaintext, or content sealed under keys the tenant's readers lack, beside ciphertext
    it cannot read."""
    row = tx.one(TICK_CLOCK, tenant=tenant, sealing=sealing, key_store=key_store)
    if row is not None and row.get("sealed") and not opening:
        raise ConfigError(f"tenant {tenant!r} holds crypto-sealed content and this process runs with CREDO_CRYPTO=off: "
                          "set CREDO_CRYPTO=on (or read-only) and the key directory that sealed it "
                          "(docs/crypto-erasure.md)")
    if row is not None and row.get("sealed") and key_store and row.get("key_store") not in (None, key_store):
        raise ConfigError(foreign_key_store(tenant, row["key_store"], key_store))
    tx.state.chain = (int(row["ledger_seq"] or 0), row["ledger_head"] or "") if row else (0, "")
    return next_tick(native(row["last"]) if row else None, now)


def foreign_key_store(tenant: str, sealed_by: str | None, ours: str) -> str:
    """The one-line refusal of a tenant sealed with another key store than this process's."""
    said = (f"tenant {tenant!r} was sealed with key store {sealed_by}, but this process's CREDO_KEY_DIR holds key "
            f"store {ours}" if sealed_by else f"tenant {tenant!r} holds crypto-sealed content, but this process's "
            f"CREDO_KEY_DIR (key store {ours}) holds none of its keys")
    return f"{said}: set CREDO_KEY_DIR to the directory that sealed it (docs/crypto-erasure.md)"


def act_as(tx: Tx, actor: str | None) -> None:
    """Name who this transaction acts for: the authenticated key (`key:<id>`) or the local process user; every event
    of the transaction records it as its actor, whatever a request's body claims."""
    tx.state.actor = actor or SYSTEM_ACTOR


def _said(detail: dict[str, Any]) -> str | None:
    """Who the caller said it acts for (a body's `actor` or `by`): recorded apart, as `on_behalf_of`."""
    said = detail.pop("actor", None)
    by = detail.pop("by", None)
    value = said if said is not None else by
    return None if value is None else str(value)


def audit(tx: Tx, tenant: str, known: datetime, events: list[tuple[str, str | None, dict[str, Any]]]) -> None:
    """Append (operation, subject_id, detail) entries to the ledger (written by `finish`, in the same transaction).

    `detail["reason"]` becomes the event's reason; the actor is the transaction's (the authenticated key or the
    process user) and `detail["actor"]`/`detail["by"]` (who the caller says it acts for) becomes `on_behalf_of`;
    content keys (statement, quote, text, ...) are dropped wherever they occur, so the ledger never holds forgotten
    content."""
    actor = tx.state.actor
    for operation, subject, detail in events:
        clean = _content_free(dict(detail))
        reason = clean.pop("reason", None)
        behalf = _said(clean)
        tx.state.audit.append(_committed({"event_id": new_id("a"), "tenant": tenant, "action": operation,
                                          "subject_id": subject, "ids": _ids(subject, clean), "actor": str(actor),
                                          "on_behalf_of": behalf, "reason": None if reason is None else str(reason),
                                          "detail": canonical_json(clean)}))


def audit_listed(tx: Tx, tenant: str, operation: str, subject: str | None, detail: dict[str, Any],
                 ids: list[str]) -> None:
    """Append one entry whose detail the caller built content-free (ids, depths, reasons: no content key anywhere)
    and whose ids it lists, so a large detail (a cascade's thousands of flagged versions) is not scanned twice."""
    clean = dict(detail)
    reason = clean.pop("reason", None)
    behalf = _said(clean)
    tx.state.audit.append(_committed({"event_id": new_id("a"), "tenant": tenant, "action": operation,
                                      "subject_id": subject,
                                      "ids": list(dict.fromkeys([subject, *ids] if subject else ids)),
                                      "actor": str(tx.state.actor), "on_behalf_of": behalf,
                                      "reason": None if reason is None else str(reason),
                                      "detail": canonical_json(clean)}))


def _committed(row: dict[str, Any]) -> dict[str, Any]:
    """An event row with the salted commitments of its free text (reason, detail, claimed actor): forgetting can
    redact those later without breaking the chain (schema/ledger.py)."""
    return {"reason_commit": None, "detail_commit": None, "on_behalf_of_commit": None, **row, **commitments(row)}


def finish(tx: Tx, tenant: str, known: datetime) -> None:
    """Store the write's known time on the clock, chain and append its ledger entries: one round trip before commit.

    The clock stays locked from `begin` to commit (tick_clock writes it), so the head read there is still the
    head here, and the ledger entries of the work and of its cascade travel together.
    """
    rows = tx.state.audit
    seq, head = tx.state.chain
    for row in rows:
        seq += 1
        row.update(seq=seq, prev_hash=head)
        row["hash"] = head = event_hash({**row, "at": known, "operation": row["action"]})
    flags = tx.state.deferred_flags  # graph/core/flags.py `defer`: a cascade's flags, written here
    if flags is None or flags.done:
        tx.one(FINISH_WRITE, tenant=tenant, known=known, seq=seq, head=head, rows=list(rows))
    else:
        flags.written(tx.one(FINISH_WRITE_FLAGGING, tenant=tenant, known=known, change=flags.change,
                             flags=flags.params, seq=seq, head=head, rows=list(rows)))
    tx.state.chain = (seq, head)
    rows.clear()


def events(tx: Tx, tenant: str, *, operation: str | None, id: str | None, actor: str | None,
           from_time: datetime | None, to_time: datetime | None, after: int, limit: int) -> list[AuditEvent]:
    """Chained events in chain order matching the filters, after position `after`, at most `limit`."""
    rows = tx.rows(READ_AUDIT_EVENTS, tenant=tenant, operation=operation, id=id, actor=actor, from_time=from_time,
                   to_time=to_time, after=after, limit=limit)
    return [to_event(r) for r in rows]


def chain_batch(tx: Tx, tenant: str, *, after: int, limit: int, unchained: bool = False) -> list[dict[str, Any]]:
    """Raw ledger rows for verification (chained after `after`, or the unchained ones), as stored."""
    return [dict(r, tenant=tenant, at=native(r["at"]), ids=list(r["ids"] or [])) for r in tx.rows(READ_LEDGER_CHAIN, tenant=tenant, after=after, limit=limit,
                                                        unchained=unchained)]


def head(tx: Tx, tenant: str) -> tuple[int, str]:
    """(seq, hash) of the chain's last event as the clock records it; (0, "") before any."""
    row = tx.one(READ_LEDGER_HEAD, tenant=tenant)
    return (int(row["ledger_seq"] or 0), row["ledger_head"] or "") if row else (0, "")


def to_event(row: dict[str, Any]) -> AuditEvent:
    """An AuditEvent from a stored row (a detail that is not JSON is kept under `unparsed`)."""
    try:
        detail = json.loads(row["detail"]) if row.get("detail") else {}
    except (TypeError, ValueError):
        detail = {"unparsed": str(row["detail"])}
    return AuditEvent(event_id=row["event_id"], seq=row.get("seq"), at=native(row["at"]), operation=row["action"],
                      subject_id=row.get("subject_id"), ids=list(row.get("ids") or []), actor=row.get("actor"),
                      on_behalf_of=row.get("on_behalf_of"), redacted=redacted(row),
                      reason=row.get("reason"), detail=detail if isinstance(detail, dict) else {"value": detail},
                      prev_hash=row.get("prev_hash"), hash=row.get("hash"))


def _content_free(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _content_free(v) for k, v in value.items() if k not in CONTENT_KEYS}
    if isinstance(value, list | tuple):
        return [_content_free(v) for v in value]
    return value


def _ids(subject: str | None, detail: Any) -> list[str]:
    found: dict[str, None] = {subject: None} if subject else {}

    def walk(value: Any) -> None:
        if isinstance(value, str) and _ID.match(value):
            found[value] = None
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(detail)
    return list(found)

