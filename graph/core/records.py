"""Turn graph records into schema models (repositories never return records or OGM objects)."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from typing import Any

from pydantic import ValidationError

from credo.schema.facts import Fact, Listing, ObjectValue, Unreadable, scope_key
from credo.schema.forget import Tombstone
from credo.graph.core.vectors import vector


def native(value: Any) -> Any:
    """Driver temporal values to Python ones, instants always in the fixed UTC offset; others unchanged.

    Neo4j orders equal instants by zone (a `[UTC]` zone id sorts after `Z`), so every instant is written
    with the same fixed offset; the driver hands back a zone id, which is normalised here.
    """
    to_native = getattr(value, "to_native", None)
    value = to_native() if callable(to_native) else value
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(timezone.utc)
    return value


INSTANT_FIELDS = ("valid_from", "valid_to", "known_from", "known_to", "verified_at")  # in the order a problem is named


def instant(text: str) -> datetime:
    """An instant from Cypher's `toString(datetime)` text, as an aware UTC datetime.

    Neo4j writes up to nine fractional digits, `Z` for a zero offset and, for a zone id, a `[Zone]` suffix
    after the offset; the zone id is dropped (the offset fixes the instant) and the fraction truncated to
    microseconds, as the driver's own conversion does.
    """
    text = text.partition("[")[0]
    if len(text) > 26:
        head, dot, rest = text.partition(".")
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if dot and digits > 6:  # sliced, not a regex substitution: this runs for every instant of every read
            text = f"{head}.{rest[:6]}{rest[digits:]}"
    return datetime.fromisoformat(text).astimezone(timezone.utc)


def with_flag(row: dict[str, Any]) -> dict[str, Any]:
    """A version's row as its state flag believed at the read's known time says (`flag` from the flag_at fragment):
    the flag's state, its stale cause and its verification time replace the version's own."""
    if "flag" not in row:
        return row
    row = dict(row)
    flag = row.pop("flag")
    if flag:
        row["state"] = flag["state"]
        cause, path = flag.get("cause") or None, flag.get("path")  # an empty line 0: this flag names no cause
        # a cascade's flag names its cause line (on the state change) and its own path from the root (stored as the
        # text shown: migration 0024)
        row["stale_cause"] = f"{cause}; path {path}" if cause is not None and path else cause
        if flag.get("verified_at") is not None:
            row["verified_at"] = flag["verified_at"]
    return row
FORGOTTEN_NAME = "[forgotten]"


def tombstone_of(row: dict[str, Any]) -> Tombstone | None:
    """The tombstone a forgotten node carries (forgotten_at/by/on_behalf_of/reason), or None."""
    at = row.get("forgotten_at")
    if at is None:
        return None
    at = instant(at) if isinstance(at, str) else native(at)
    return Tombstone(forgotten_at=at, by=row.get("forgotten_by") or "unknown", reason=row.get("forgotten_reason") or "",
                     on_behalf_of=row.get("forgotten_on_behalf_of"))


def fact_from_row(row: dict[str, Any]) -> Fact:
    """A Fact model from a map projection of a :Fact node (instants as driver values or ISO text).

    A row that fails validation (a bad property written by an old bug or by hand) never raises: it comes back
    built without validation and marked `unreadable` (field and reason), so reads skip it and name it
    (`readable`) while a repairing write (correct_fact, retract_fact) can still address it."""
    problems: list[tuple[str, str]] = []
    # only the five instants need converting (every other field a version has is a plain value), so the row is
    # read as it is and the instants are converted beside it: a loop over every key cost half of a read's decoding
    data = with_flag(row)
    instants: dict[str, Any] = {}
    for key in INSTANT_FIELDS:
        value = data.get(key)
        if value is None:
            continue
        try:
            instants[key] = instant(value) if type(value) is str else native(value)
        except (TypeError, ValueError) as exc:
            problems.append((key, f"not an instant ({exc})"))
            instants[key] = value
    stored_scope = data.get("scope_key")
    try:
        scope = {} if stored_scope in (None, "", "{}") else json.loads(stored_scope)
    except (TypeError, ValueError):
        problems.append(("scope", f"stored scope_key is not a JSON mapping: {data.get('scope_key')!r}"))
        scope = {}
    tomb = tombstone_of(row)
    if tomb is not None:  # the content is gone: a read shows who forgot it, when and why, never the content
        data = {**data, "statement": tomb.text(), "subject_name": FORGOTTEN_NAME, "object_value": FORGOTTEN_NAME,
                "object_name": FORGOTTEN_NAME, "quote": None}  # a copy: the caller's row stays as read
    obj = {"type": data.get("object_type"), "value": data.get("object_value"), "entity_id": data.get("object_id")}
    fields = dict(
        tenant=data.get("tenant"), fact_id=data.get("fact_id"), version_id=data.get("version_id"),
        subject=data.get("subject_name"), subject_id=data.get("subject_id"), predicate=data.get("predicate"),
        object=obj, object_name=data.get("object_name") or data.get("object_value"),
        statement=data.get("statement") or "", quote=data.get("quote"), scope=scope,
        kind=data.get("kind") or "semantic", evidence=data.get("evidence") or "unknown",
        epistemic=data.get("epistemic") or "confirmed", confidence=data.get("confidence"),
        sensitivity=data.get("sensitivity"), state=data.get("state"), valid_from=instants.get("valid_from"),
        valid_from_precision=data.get("valid_from_precision"), valid_to=instants.get("valid_to"),
        valid_to_precision=data.get("valid_to_precision"), known_from=instants.get("known_from"),
        known_to=instants.get("known_to"), verified_at=instants.get("verified_at"), ended_by=data.get("ended_by"),
        end_reason=data.get("end_reason"), bounded_by=data.get("bounded_by"), stale_cause=data.get("stale_cause"),
        lapse_reason=data.get("lapse_reason"), disputed=bool(data.get("disputed")), tombstone=tomb,
        aliases=tuple(data.get("aliases") or ()), independent_sources=data.get("independent_sources") or 0,
        operational=bool(data.get("operational")), evidence_hold=bool(data.get("evidence_hold")),
        write_plan=data.get("write_plan"), awaiting=data.get("awaiting"),
        replaces=data.get("replaces"),
    )
    if not problems:
        try:
            return Fact(**fields)
        except ValidationError as exc:
            problems += [(str(e["loc"][0]) if e["loc"] else "fact", e["msg"]) for e in exc.errors()]
    field, reason = problems[0]
    broken = Unreadable(version_id=_text(fields["version_id"]), fact_id=_text(fields["fact_id"]), field=field,
                        reason=reason)
    return Fact.model_construct(**{**fields, "object": ObjectValue.model_construct(**obj)}, unreadable=broken)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


log = logging.getLogger("credo")


def readable(found: list[Any], where: str, fact: Any = lambda item: item) -> Listing:
    """The items whose fact reads cleanly, as a Listing naming the unreadable ones (and a logged warning)."""
    good, bad = [], []
    for item in found:
        broken = fact(item).unreadable
        (bad if broken is not None else good).append(broken or item)
    if bad:
        log.warning("%s skipped %d unreadable fact version(s): %s", where, len(bad), "; ".join(b.text() for b in bad))
    return Listing(good, bad)


def fact_props(fact: Fact, *, embedding: list[float] | None = None, norm_subject: str | None = None) -> dict[str, Any]:
    """Every stored property of a Fact version (the inverse of fact_from_row)."""
    props: dict[str, Any] = {
        "tenant": fact.tenant,
        "fact_id": fact.fact_id,
        "version_id": fact.version_id,
        "subject_id": fact.subject_id,
        "subject_name": fact.subject,
        "predicate": fact.predicate,
        "object_type": fact.object.type,
        "object_value": fact.object.value,
        "object_id": fact.object.entity_id,
        "object_name": fact.object_name,
        "statement": fact.statement,
        "quote": fact.quote,
        "scope_key": scope_key(fact.scope),
        "kind": fact.kind,
        "evidence": fact.evidence.value,
        "epistemic": fact.epistemic.value,
        "confidence": fact.confidence,
        "sensitivity": fact.sensitivity,
        "state": fact.state,
        "valid_from": fact.valid_from,
        "valid_from_precision": fact.valid_from_precision,
        "valid_to": fact.valid_to,
        "valid_to_precision": fact.valid_to_precision,
        "known_from": fact.known_from,
        "known_to": fact.known_to,
        "verified_at": fact.verified_at,
        "bounded_by": fact.bounded_by,
        "stale_cause": fact.stale_cause,
        "lapse_reason": fact.lapse_reason,
        "aliases": list(fact.aliases) or None,
        "independent_sources": fact.independent_sources or None,
        "operational": fact.operational or None,
        "evidence_hold": fact.evidence_hold or None,
        "write_plan": fact.write_plan,
        "awaiting": fact.awaiting,
        "replaces": fact.replaces,
        "embedding": vector(embedding),
    }
    return {k: v for k, v in props.items() if v is not None}


FAR_FUTURE = datetime(9999, 12, 31, tzinfo=timezone.utc)
