"""The write gate: a turn's eligible human messages, and `remember(quote, content, ...)` (DESIGN §3).

The gate proves only that the quote occurs, after whitespace normalisation, inside one eligible human
message of this turn; it does not prove that the rewrite follows from the quote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from credo.graph import facts as fact_repo
from credo.graph import ledger
from credo.graph import predicates as predicate_repo
from credo.graph import sources as source_repo
from credo.graph.db import Tx
from credo.graph.ledger import new_id
from credo.schema.errors import EvidenceRefused, InvalidInput
from credo.schema.facts import EndKind, Epistemic, Evidence, Fact, ObjectValue, PredicateDef, check_interval, check_version
from credo.schema.lifecycle import State, check_transition
from credo.schema.names import LITERAL_MAX, TEXT_MAX, clean_text, normalise_predicate
from credo.schema.sources import HUMAN_ORIGINS, Source
from credo.schema.time import optional_point
from credo.services import predicates as predicate_service
from credo.services import record_fact
from credo.services import sources as source_service
from credo.services.context import Context
from credo.services.revise_fact import resolve_object
from credo.services.versions import create as create_versions
from credo.services.versions import next_version, retire, the_current

# Hedges keep a claim a hypothesis whatever the rewrite says. English phrases match on word boundaries,
# case-insensitively and whitespace-normalised; Chinese ones as substrings ("可能" not inside "不可能", which
# asserts). The scope searched is the quote plus the sentence(s) of its message that contain it (`hedge_scope`).
HEDGES_EN: tuple[str, ...] = (
    "i guess", "i think", "i suspect", "i believe", "i assume", "i reckon", "maybe", "perhaps", "probably",
    "possibly", "might", "may be", "could be", "not sure", "not 100% sure", "unsure", "not certain", "not confirmed",
    "unconfirmed", "not yet confirmed", "to be confirmed", "tbc", "tbd", "iirc", "if i recall",
    "if i remember correctly", "apparently", "seems", "presumably",
)
HEDGES_ZH: tuple[str, ...] = (
    "可能", "也许", "或许", "大概", "我猜", "我觉得", "我想", "好像", "似乎", "估计", "应该是", "不确定", "不太确定",
    "不一定", "说不定", "还没确认", "未确认", "待确认", "没确认",
)
_NOT_AFTER_ZH = {"可能": "不"}
_HEDGE_EN = re.compile(r"\b(" + "|".join(re.escape(h) for h in sorted(HEDGES_EN, key=len, reverse=True)) + r")\b",
                       re.IGNORECASE)
_HEDGE_ZH = re.compile("|".join(
    (f"(?<!{re.escape(_NOT_AFTER_ZH[h])})" if h in _NOT_AFTER_ZH else "") + re.escape(h)
    for h in sorted(HEDGES_ZH, key=len, reverse=True)))
_WS = re.compile(r"\s+")
# a sentence ends at . ! ? followed by whitespace or the end ("v1.2" is no end), at 。！？, or at a line break
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)|[。！？]+|\n")
DEFAULT_PREDICATE = "noted"


def hedges(quote: str) -> list[str]:
    """The hedges a text contains, each once (empty when it asserts plainly)."""
    text = _WS.sub(" ", quote)
    found = [m.group(1).lower() for m in _HEDGE_EN.finditer(text)]
    found += [m.group(0) for m in _HEDGE_ZH.finditer(text)]
    return list(dict.fromkeys(found))


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """[start, end) of each sentence of `text` (the one sentence rule, for hedges and for questions)."""
    bounds, at = [], 0
    for m in _SENTENCE_END.finditer(text):
        bounds.append((at, m.end()))
        at = m.end()
    if at < len(text):
        bounds.append((at, len(text)))
    return bounds


def hedge_scope(text: str, span: Sequence[int]) -> str:
    """The sentence(s) of `text` that overlap the [start, end) span: the words that qualify a quote there."""
    start, end = span[0], max(span[1], span[0] + 1)
    bounds = sentence_bounds(text)
    hit = [(s, e) for s, e in bounds if s < end and e > start]
    return text[hit[0][0]:hit[-1][1]].strip() if hit else ""


def quote_hedges(text: str, span: Sequence[int], quote: str) -> list[str]:
    """The hedges qualifying a quote found at `span` of a message: in the quote or its sentence(s) (pure rule)."""
    return hedges(hedge_scope(text, span) + "\n" + quote)


def normalise(text: str) -> tuple[str, list[int]]:
    """Whitespace runs collapsed to one space and trimmed, with each kept character's original offset."""
    out, offsets, pending = [], [], False
    for i, ch in enumerate(text):
        if ch.isspace():
            pending = bool(out)
            continue
        if pending:
            out.append(" ")
            offsets.append(i - 1)
            pending = False
        out.append(ch)
        offsets.append(i)
    return "".join(out), offsets


def locate(text: str, quote: str) -> list[int] | None:
    """[start, end) of the quote in the original text, matching after whitespace normalisation only."""
    norm_text, offsets = normalise(text)
    norm_quote = _WS.sub(" ", quote).strip()
    at = norm_text.find(norm_quote) if norm_quote else -1
    if at < 0:
        return None
    return [offsets[at], offsets[at + len(norm_quote) - 1] + 1]


def match_quote(messages: Sequence[Source], quote: str) -> tuple[Source, list[int]] | None:
    """The first eligible message containing the whole quote, and the span it occupies there."""
    for message in messages:
        span = locate(message.text or "", quote)
        if span is not None:
            return message, span
    return None


def is_pure_question(text: str) -> bool:
    """Whether a message only asks (every sentence ends with a question mark): a question accepts nothing."""
    sentences = [text[a:b].strip() for a, b in sentence_bounds(text) if text[a:b].strip()]
    return bool(sentences) and all(s.endswith(("?", "？")) or s.endswith("吗") for s in sentences)


def eligible(message: Source) -> bool:
    """Human testimony: a message whose origin (not role) is a human one."""
    return message.kind == "message" and message.origin in HUMAN_ORIGINS


@dataclass
class Turn:
    """The current turn of a session: its eligible human messages, and the gate to remember from them."""

    ctx: Context = field(repr=False)
    session_id: str
    generation: int
    messages: list[Source]
    start_index: int
    since_given: bool = False  # the caller fixed the turn's start; otherwise it follows the agent's last message

    def remember(
        self, quote: str, content: str, *, category: str | None = None, replaces: str | None = None,
        project: str | None = None, subject: str | None = None, predicate: str | None = None, object: Any = None,
        valid_from: Any = None, valid_to: Any = None, scope: dict[str, str] | None = None,
        depends_on: Sequence[str] | None = None,
    ) -> Fact:
        """Record `content` on the word of `quote`, which must occur in one human message of this turn."""
        return remember(self.ctx, turn=self, quote=quote, content=content, category=category, replaces=replaces,
                        project=project, subject=subject, predicate=predicate, object=object, valid_from=valid_from,
                        valid_to=valid_to, scope=scope, depends_on=depends_on)


def turn_messages(messages: Sequence[Source], generation: int, since: int | None = None) -> tuple[list[Source], int]:
    """The eligible messages of a generation's current turn and its start: after the agent's last message,
    or from `since` when given (pure rule)."""
    in_gen = [m for m in messages if m.generation == generation]
    if since is None:
        agent = [m.index for m in in_gen if m.origin == "agent"]
        since = max(agent) + 1 if agent else 0
    return [m for m in in_gen if (m.index or 0) >= since and eligible(m)], since


def open_turn(ctx: Context, *, session_id: str, generation: int | None = None, since: int | None = None) -> Turn:
    """The current turn: messages of the generation after the agent's last message (or from `since`)."""
    messages = ctx.read(lambda tx: source_service.session(tx, ctx.tenant, session_id))
    gen = source_service.current_generation(messages) if generation is None else generation
    if not any(m.generation == gen for m in messages):
        raise InvalidInput("generation", f"session {session_id!r} has no generation {gen}")
    turn, start = turn_messages(messages, gen, since)
    return Turn(ctx=ctx, session_id=session_id, generation=gen, messages=turn, start_index=start,
                since_given=since is not None)


def _premises(tx: Tx, tenant: str, depends_on: Sequence[str] | None) -> list[Fact]:
    if not depends_on:
        return []
    if isinstance(depends_on, str):
        depends_on = [depends_on]
    return [the_current(tx, tenant, ref) for ref in depends_on]


def remember(
    ctx: Context, *, turn: Turn, quote: str, content: str, category: str | None = None, replaces: str | None = None,
    project: str | None = None, subject: str | None = None, predicate: str | None = None, object: Any = None,
    valid_from: Any = None, valid_to: Any = None, scope: dict[str, str] | None = None,
    depends_on: Sequence[str] | None = None,
) -> Fact:
    """The write gate of DESIGN §3; the result has evidence `stated` (a hypothesis when the quote hedges)."""
    if not isinstance(quote, str) or not quote.strip():
        raise EvidenceRefused("quote", "must not be empty (an empty quote proves nothing)")
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("content", "must not be empty: a rewrite readable without the conversation")
    clean_text(content, "content", limit=LITERAL_MAX if object is None else TEXT_MAX)  # without an object, it is one
    if not turn.messages:
        raise EvidenceRefused("quote", f"session {turn.session_id!r} has no human message in the current turn; "
                              "without a human to quote nothing can be remembered as stated")
    found = match_quote(turn.messages, quote)
    if found is None:
        raise EvidenceRefused("quote", "does not occur verbatim (whitespace aside) inside one human message of "
                              "this turn; synonyms and quotes stitched from several messages are refused")
    message, span = found
    hedged = quote_hedges(message.text or "", span, quote)
    epistemic = Epistemic.HYPOTHESIS if hedged else Epistemic.CONFIRMED
    scope = dict(scope) if scope else ({"project": project} if project else {})
    defaulted = predicate is None
    predicate = predicate or category or DEFAULT_PREDICATE
    data = record_fact.validate(
        subject=subject or project or message.author or "user", predicate=predicate,
        object=content.strip() if object is None else object, object_is_entity=False if object is None else None,
        valid_from=valid_from, valid_to=valid_to, scope=scope, statement=content.strip(), quote=quote,
        evidence=Evidence.STATED, epistemic=epistemic,
    )
    data.bounds()

    def work(tx: Tx, known: datetime) -> Fact:
        if message.source_id not in source_repo.by_ids(tx, ctx.tenant, [message.source_id]):
            raise EvidenceRefused("quote", f"the matched message {message.source_id} is no longer stored")
        # the Turn is a snapshot: the turn may have moved on since it was opened (the agent replied)
        now = source_service.session(tx, ctx.tenant, turn.session_id)
        current, _ = turn_messages(now, turn.generation, turn.start_index if turn.since_given else None)
        if message.source_id not in {m.source_id for m in current}:
            raise EvidenceRefused("quote", f"message #{message.index} of session {turn.session_id!r} is no longer in "
                                  "the current turn (the agent has replied since); open a new turn and quote from it")
        premises = _premises(tx, ctx.tenant, depends_on)
        if replaces is not None:
            fact = _replace(tx, ctx, known, replaces, data, subject, None if defaulted else predicate, object,
                            valid_from, valid_to)
        else:
            if defaulted and predicate not in predicate_service.registry(tx, ctx.tenant):
                predicate_repo.define(tx, ctx.tenant, known, PredicateDef(name=predicate, cardinality="multi"))
            fact = record_fact.record(tx, ctx, known, [data])[0]
        source_repo.link_sourced_from(tx, known, [(fact.version_id, message.source_id, quote, span)])
        justification = new_id("j") if premises else None
        source_repo.link_depends_on(tx, known, [(fact.version_id, p.version_id, justification) for p in premises])
        ledger.audit(tx, ctx.tenant, known, [("remember", fact.fact_id, {
            "version_id": fact.version_id, "source_id": message.source_id, "span": span,
            "epistemic": epistemic.value, "hedged": bool(hedged), "replaces": replaces, "justification": justification})])
        return fact

    return ctx.write(work, embed=[data.statement or ""])


def _replace(tx: Tx, ctx: Context, known: datetime, ref: str, data: Any, subject: str | None, predicate: str | None,
             object: Any, valid_from: Any, valid_to: Any) -> Fact:
    """An explicit act: the replaced fact's current version is corrected to what the quote says.

    The lifecycle table still applies (a rejected or forgotten fact cannot come back this way) and a conflicted
    fact needs resolve_conflict. The new version rests on the new quote's word: the old version's evidence
    (SOURCED_FROM, ACCEPTED_IN) is not carried, its premises (DEPENDS_ON) are.
    """
    old = the_current(tx, ctx.tenant, ref)
    if old.state == State.CONFLICTED:
        raise InvalidInput("replaces", f"fact {old.fact_id} is conflicted: settle the dispute with resolve_conflict "
                           "(confirm, reject or split scopes) before replacing it")
    if old.state != State.ACTIVE:  # active -> active is a correction, not a state change
        check_transition(old.fact_id, old.state, State.ACTIVE)
    if subject is not None and subject != old.subject:
        raise InvalidInput("subject", f"a replacement keeps the subject ({old.subject!r}); remember a new fact instead")
    if predicate is not None and normalise_predicate(predicate) != old.predicate:
        raise InvalidInput("predicate", f"a replacement keeps the predicate ({old.predicate!r})")
    if object is None:
        value, name = ObjectValue(type="string", value=data.statement), data.statement
    else:
        value, name = resolve_object(tx, ctx, known, object)
    changes: dict[str, Any] = {"object": value, "object_name": name, "statement": data.statement, "quote": data.quote,
                               "evidence": Evidence.STATED, "epistemic": data.epistemic, "verified_at": known,
                               "state": "active", "stale_cause": None}
    if valid_from is not None:
        changes["valid_from"], changes["valid_from_precision"] = optional_point(valid_from, "valid_from")
    if valid_to is not None:
        changes["valid_to"], changes["valid_to_precision"] = optional_point(valid_to, "valid_to")
        changes["bounded_by"] = None
    if data.scope:
        changes["scope"] = data.scope
    check_interval(changes.get("valid_from", old.valid_from), changes.get("valid_to", old.valid_to))
    newer = check_version(next_version(old, known, **changes))
    retire(tx, known, [(old, EndKind.CORRECTION.value, "replaced by a remembered human statement")])
    create_versions(tx, [newer])
    source_repo.carry_depends_on(tx, known, [(old.version_id, newer.version_id)])
    fact_repo.link_supersedes(tx, known, [(newer.version_id, old.version_id, "correction", None)])
    return newer
