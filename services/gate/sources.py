"""Record sources: documents, tool results and observations (`add_source`) and conversation messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from credo.graph.core import ledger
from credo.graph.gate import sources as source_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema import commands as c
from credo.schema.command_base import refusal
from credo.schema.errors import EvidenceRefused, InvalidInput, NotFound
from credo.schema.facts import EndKind, Epistemic
from credo.schema.sources import MessageIn, MessageRef, Source
from credo.schema.time import parse_instant
from credo.services.core.clearance import label
from credo.services.core.context import Context
from credo.services.core.versions import next_version, replace, retire, the_current
from credo.services.facts import evidence_rules
from credo.services.core.unit_of_work import Write
from credo.services.gate import attest
from credo.services.gate.rules import locate

STANDALONE_KINDS = ("document", "tool_result", "observation", "code", "test", "log")


def add_source(ctx: Context, cmd: c.AddSource) -> Source:
    """Record a document, tool result, observation, code, test or log; its text is never edited afterwards."""
    kind, text, at = cmd.kind, cmd.text, cmd.at
    if kind not in STANDALONE_KINDS:
        hint = " (messages go through ingest_messages)" if kind == "message" else ""
        raise InvalidInput("kind", f"must be one of {list(STANDALONE_KINDS)}{hint}", value=kind)
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("text", "must be non-empty text")
    when = None if at is None else parse_instant(at, "at")
    row = {"source_id": new_id("s"), "kind": kind, "text": text, "title": cmd.title, "uri": cmd.uri,
           "author": cmd.author, "at": when, "origin": cmd.origin, "sensitivity": label(ctx.clearance, None)}

    def work(w: Write) -> Source:
        tx, known = w.tx, w.known
        source_repo.create(tx, ctx.tenant, known, [row])
        ledger.audit(tx, ctx.tenant, known, [("add_source", row["source_id"], {"kind": kind})])
        return Source(tenant=ctx.tenant, known_from=known, **{k: v for k, v in row.items() if v is not None})

    return ctx.write(work)


def parse_messages(messages: Sequence[Any]) -> list[MessageIn]:
    """Validate every message first; the first bad one is named by its position and field."""
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise InvalidInput("messages", "must be a list of messages")
    parsed: list[MessageIn] = []
    for i, message in enumerate(messages):
        try:
            parsed.append(message if isinstance(message, MessageIn) else MessageIn.model_validate(message))
        except ValidationError as exc:
            refused = refusal(exc.errors(), message)
            where = "" if refused.field == "input" else refused.field
            raise InvalidInput(f"messages[{i}]{'.' + where if where else ''}", refused.rule) from None
        except InvalidInput as exc:
            raise InvalidInput(f"messages[{i}].{exc.field}", exc.rule) from None
    seen: set[int] = set()
    for i, m in enumerate(parsed):
        if m.index in seen:
            raise InvalidInput(f"messages[{i}].index", f"position {m.index} appears twice in this batch")
        seen.add(m.index)
    return parsed


def ingest_messages(ctx: Context, cmd: c.IngestMessages) -> list[Source]:
    """Record conversation messages; re-sending an identical message is a no-op, changing one is refused. Each human
    message records who vouched for it; under the tenant flag `attested_human_messages` only a principal holding
    `attest` may ingest one (services/gate/attest.py)."""
    session_id, generation = cmd.session_id, cmd.generation  # non-empty and a positive integer (the command's types)
    parsed = parse_messages(cmd.messages)

    sensitivity = label(ctx.clearance, None)  # an unlabelled message of a caller below internal carries its level

    def work(w: Write) -> list[Source]:
        tx, known = w.tx, w.known
        attest.check_ingest(tx, ctx, known, (m.origin for m in parsed))  # before anything of the batch is written
        visible, hidden = source_repo.session_read(tx, ctx.tenant, session_id)
        stored = {(s.generation, s.index): s for s in map(source_repo.source_from_row, visible)}
        rows, result = [], []
        for i, m in enumerate(parsed):
            if (generation, m.index) in hidden:  # taken by a message the caller may not see: refused whatever it holds
                raise InvalidInput(f"messages[{i}].index", f"position {m.index} of generation {generation} already "
                                   "holds a different message; source text is immutable")
            old = stored.get((generation, m.index))
            if old is not None:
                if (old.text, old.origin, old.role, old.author) != (m.text, m.origin, m.role, m.author):
                    raise InvalidInput(f"messages[{i}].index", f"position {m.index} of generation {generation} already "
                                       "holds a different message; source text is immutable")
                result.append(old)
                continue
            row = {"source_id": new_id("s"), "kind": "message", "session_id": session_id, "generation": generation,
                   **m.model_dump(), "sensitivity": sensitivity, "attested_by": attest.voucher(ctx, m.origin)}
            rows.append(row)
            result.append(Source(tenant=ctx.tenant, known_from=known, **{k: v for k, v in row.items() if v is not None}))
        source_repo.create(tx, ctx.tenant, known, rows)
        ledger.audit(tx, ctx.tenant, known, [("ingest_messages", session_id, {"generation": generation,
                                                                             "indexes": [r["index"] for r in rows]})])
        return result

    return ctx.write(work)


def session(tx: Tx, tenant: str, session_id: str) -> list[Source]:
    """Every message of a session; NotFound if it has none."""
    found = source_repo.session_messages(tx, tenant, session_id)
    if not found:
        raise NotFound("session", session_id)
    return found


def current_generation(messages: list[Source]) -> int:
    """The latest generation among a session's messages."""
    return max(m.generation or 1 for m in messages)


def parse_ref(message: Any, field: str = "message") -> MessageRef:
    """A MessageRef from a model, a dict or a (session_id, index[, generation]) tuple."""
    try:
        if isinstance(message, MessageRef):
            return message
        if isinstance(message, tuple):
            return MessageRef(**dict(zip(("session_id", "index", "generation"), message)))
        return MessageRef.model_validate(message)
    except (ValidationError, TypeError) as exc:
        raise InvalidInput(field, "must point at a message: {session_id, index[, generation]}") from exc


def find_message(tx: Tx, tenant: str, ref: MessageRef, field: str = "message") -> tuple[Source, int]:
    """The message a pointer names and the session's current generation; precise errors when it names nothing."""
    messages = session(tx, tenant, ref.session_id)
    current = current_generation(messages)
    generation = ref.generation if ref.generation is not None else current
    for m in messages:
        if m.generation == generation and m.index == ref.index:
            return m, current
    raise EvidenceRefused(f"{field}.index", f"no message at position {ref.index} of session {ref.session_id!r} "
                          f"generation {generation} (a missing position is not evidence)")


def cite(ctx: Context, cmd: c.Cite) -> None:
    """Link a fact's current version to a source (evidence kind unchanged). An operational rule held as a hypothesis
    for want of direct evidence is re-checked: a tool result, code, test or log cited under it confirms it, in a new
    version carrying its sources (versions are immutable); a hedged one stays a hypothesis."""
    fact_id, source_id, quote = cmd.fact_id, cmd.source_id, cmd.quote

    def work(w: Write) -> None:
        tx, known = w.tx, w.known
        fact = the_current(tx, ctx.tenant, fact_id)
        found = source_repo.by_ids(tx, ctx.tenant, [source_id]).get(source_id)
        if found is None:
            raise NotFound("source", source_id)
        span = None
        if quote is not None:
            span = locate(found.text or "", quote)
            if span is None:
                raise EvidenceRefused("quote", f"does not occur verbatim in source {source_id}")
        detail = {"version_id": fact.version_id, "source_id": source_id}
        if evidence_rules.confirms(fact, {"kind": found.kind, "origin": found.origin}):
            # the hold was all that kept it a hypothesis: a new version, confirmed, carries its sources and premises
            newer = next_version(fact, known, epistemic=Epistemic.CONFIRMED, evidence_hold=False, verified_at=known)
            retire(w, [(fact, EndKind.STATE_CHANGE.value, f"confirmed by direct evidence ({found.kind} {source_id})")])
            replace(w, [(fact, newer)])
            detail.update(version_id=newer.version_id, confirmed=True, previous=fact.version_id)
            fact = newer
        source_repo.link_sourced_from(tx, known, [(fact.version_id, source_id, quote, span)])
        ledger.audit(tx, ctx.tenant, known, [("cite", fact.fact_id, detail)])

    ctx.write(work)
