"""The write gate: a turn's eligible human messages, and `remember(quote, content, ...)` (DESIGN §3).

The gate admits a claim on the word of a quote that occurs (canonical Unicode and whitespace aside) in one eligible
human message of this turn, the latest that holds it; that states rather than asks; and that carries the claim's
words (services/gate/rules.py, services/gate/carry_rules.py). It does not prove that the rewrite follows from the quote
(DESIGN §11: the verifier's part).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from credo.graph.core import versions as fact_repo
from credo.graph.core import ledger
from credo.graph.facts import predicates as predicate_repo
from credo.graph.gate import sources as source_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema import commands as c
from credo.schema.commands import fields_of
from credo.schema.consent import Remembered, surface_line
from credo.schema.errors import EvidenceRefused, InvalidInput
from credo.schema.facts import EndKind, Epistemic, Evidence, Fact, ObjectValue, PredicateDef, check_interval, check_version
from credo.schema.lifecycle import State, check_transition
from credo.schema.names import LITERAL_MAX, TEXT_MAX, clean_text, normalise_predicate
from credo.schema.sources import HUMAN_ORIGINS, Source
from credo.schema.time import optional_point
from credo.services.facts import evidence_rules
from credo.services.facts import predicates as predicate_service
from credo.services.facts import record as record_fact
from credo.services.gate import attest
from credo.services.gate import sources as source_service
from credo.services.gate.carry_rules import Gap, carries
from credo.services.core.context import Context
from credo.services.gate.rules import (
    HEDGES_EN, HEDGES_ZH, asked, hedge_scope, hedges, is_pure_question, latest_match, locate, quote_hedges,
    sentence_bounds,
)
from credo.services.facts.revise import resolve_object
from credo.services.core.versions import create as create_versions
from credo.services.core.versions import next_version, retire, the_current
from credo.services.core.unit_of_work import Write
from credo.services.policy import plan as write_policy

DEFAULT_PREDICATE = "noted"
__all__ = ["HEDGES_EN", "HEDGES_ZH", "Turn", "eligible", "hedge_scope", "hedges", "is_pure_question", "locate",
           "match_quote", "open_turn", "quote_hedges", "remember", "remember_in_turn", "sentence_bounds", "turn_messages"]


def match_quote(messages: Sequence[Source], quote: str) -> tuple[Source, list[int]] | None:
    """The latest eligible message containing the whole quote, and the span of its last occurrence there."""
    return latest_match(messages, quote)


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
        depends_on: Sequence[str] | None = None, operational: bool = False,
    ) -> Fact:
        """Record `content` on the word of `quote`, which must occur in one human message of this turn."""
        return remember_in_turn(self.ctx, turn=self, quote=quote, content=content, category=category,
                                replaces=replaces, project=project, subject=subject, predicate=predicate,
                                object=object, valid_from=valid_from, valid_to=valid_to, scope=scope,
                                depends_on=depends_on, operational=operational)


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


def remember(ctx: Context, cmd: c.Remember) -> Remembered:
    """The write gate in one call: open the session's turn (the current one, or the one `generation` and `since`
    name) and remember `content` on the word of `quote` there."""
    turn = open_turn(ctx, session_id=cmd.session_id, generation=cmd.generation, since=cmd.since)
    return remember_in_turn(ctx, turn=turn, **fields_of(cmd, drop=("session_id", "generation", "since")))


def remember_in_turn(
    ctx: Context, *, turn: Turn, quote: str, content: str, category: str | None = None, replaces: str | None = None,
    project: str | None = None, subject: str | None = None, predicate: str | None = None, object: Any = None,
    valid_from: Any = None, valid_to: Any = None, scope: dict[str, str] | None = None,
    depends_on: Sequence[str] | None = None, operational: bool = False,
) -> Remembered:
    """The write gate of DESIGN §3; the result has evidence `stated` (a hypothesis when the quote hedges, or when it
    is an `operational` rule: a person's word alone is not direct evidence, DESIGN §11). Under a policy that
    surfaces semantic writes (the default, DESIGN §9) a new fact is written as a candidate awaiting consent and the
    answer's `surface` is the line to show the person; so is a replacement (`replaces`): a candidate correction of
    the replaced fact, which keeps serving until the person consents (services/gate/consent.py applies it then)."""
    if not isinstance(quote, str) or not quote.strip():
        raise EvidenceRefused("quote", "must not be empty (an empty quote proves nothing)")
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("content", "must not be empty: a rewrite readable without the conversation")
    clean_text(content, "content", limit=LITERAL_MAX if object is None else TEXT_MAX)  # without an object, it is one
    gated = ctx.governance.gate  # off only in the ablation harness: any message of the session may be quoted
    if gated and not turn.messages:
        raise EvidenceRefused("quote", f"session {turn.session_id!r} has no human message in the current turn; "
                              "without a human to quote nothing can be remembered as stated")
    pool = turn.messages if gated else ctx.read(lambda tx: source_service.session(tx, ctx.tenant, turn.session_id))
    found = match_quote(pool, quote)
    if found is None:
        raise EvidenceRefused("quote", "does not occur verbatim (whitespace and Unicode normal form aside; case "
                              "counts) inside one human message of this turn; synonyms and quotes stitched from "
                              "several messages are refused")
    message, span = found
    question = asked(message.text or "", span, quote) if gated else None
    if question is not None:
        raise EvidenceRefused("quote", f"a question asks, it does not state: quote a statement (message "
                              f"#{message.index}, the latest holding the quote, asks {_clip(question)!r})")
    hedged = quote_hedges(message.text or "", span, quote)
    epistemic = Epistemic.HYPOTHESIS if hedged else Epistemic.CONFIRMED
    scope = dict(scope) if scope else ({"project": project} if project else {})
    defaulted = predicate is None
    predicate = predicate or category or DEFAULT_PREDICATE
    data = record_fact.validate(
        subject=subject or project or message.author or "user", predicate=predicate,
        object=content.strip() if object is None else object, object_is_entity=False if object is None else None,
        valid_from=valid_from, valid_to=valid_to, scope=scope, statement=content.strip(), quote=quote,
        evidence=Evidence.STATED, epistemic=epistemic, operational=operational,
    )
    data.bounds()
    gap = claim_gap(quote, content, data, subject=subject, object=object, speaker=message.author) if gated else None
    if gap is not None:
        raise EvidenceRefused(gap.field, gap.rule)

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        if message.source_id not in source_repo.by_ids(tx, ctx.tenant, [message.source_id]):
            raise EvidenceRefused("quote", f"the matched message {message.source_id} is no longer stored")
        attest.check_vouched(tx, ctx, known, [message], field="quote", use="quote")
        # the Turn is a snapshot: the turn may have moved on since it was opened (the agent replied)
        now = source_service.session(tx, ctx.tenant, turn.session_id)
        current, _ = turn_messages(now, turn.generation, turn.start_index if turn.since_given else None)
        if gated and message.source_id not in {m.source_id for m in current}:
            raise EvidenceRefused("quote", f"message #{message.index} of session {turn.session_id!r} is no longer in "
                                  "the current turn (the agent has replied since); open a new turn and quote from it")
        premises = _premises(tx, ctx.tenant, depends_on)
        if replaces is not None:
            old, newer = correction(w, ctx, replaces, data, subject, None if defaulted else predicate, object,
                                    valid_from, valid_to)
            plan = write_policy.admitted(w, newer, newer.kind)
            if plan.visible == "surfaced":  # DESIGN §9: it waits for consent; the version it would replace serves
                fact = propose_correction(w, old, newer, write_policy.stamp(w, newer, newer.kind))
            else:
                fact = apply_correction(w, old, newer, "replaced by a remembered human statement")
        else:
            if defaulted and predicate not in predicate_service.registry(tx, ctx.tenant):
                predicate_repo.define(tx, ctx.tenant, known, PredicateDef(name=predicate, cardinality="multi"))
            # DESIGN §9: a surfaced write is written but serves nothing until the person consents (services/gate/consent.py)
            waits = write_policy.admitted(w, data, data.kind).visible == "surfaced"
            fact = record_fact.record(w, ctx, [data], sources=[(message.source_id, quote, span)],
                                      **({"state": State.CANDIDATE, "apply_rules": False, "awaiting": "consent"}
                                         if waits else {}))[0]
        if replaces is not None:
            source_repo.link_sourced_from(tx, known, [(fact.version_id, message.source_id, quote, span)])
        justification = new_id("j") if premises else None
        source_repo.link_depends_on(tx, known, [(fact.version_id, p.version_id, justification) for p in premises])
        ledger.audit(tx, ctx.tenant, known, [("remember", fact.fact_id, {
            "version_id": fact.version_id, "source_id": message.source_id, "span": span,
            "epistemic": fact.epistemic.value, "hedged": bool(hedged), "replaces": replaces, "justification": justification,
            **({"awaiting": fact.awaiting} if fact.awaiting else {})})])
        return Remembered.of(fact, surface_line(fact.statement) if fact.awaiting == "consent" else None)

    return ctx.write(work, embed=[data.statement or ""])


def claim_gap(quote: str, content: str, data: Any, *, subject: str | None, object: Any, speaker: str | None
              ) -> Gap | None:
    """What of the claim the quote does not carry (carry_rules), for the subject and object the caller named."""
    obj = None
    if object is not None:
        value = record_fact.object_of(data)
        obj = ("entity", value) if isinstance(value, str) else (value.type, value.value)
    return carries(quote, content=content.strip(), subject=None if subject is None else data.subject, obj=obj,
                   speaker=speaker)


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def correction(w: Write, ctx: Context, ref: str, data: Any, subject: str | None, predicate: str | None,
               object: Any, valid_from: Any, valid_to: Any) -> tuple[Fact, Fact]:
    """Step: the replaced fact's current version and the version correcting it to what the quote says (not written).

    The lifecycle table still applies (a rejected or forgotten fact cannot come back this way) and a conflicted
    fact needs resolve_conflict. The new version rests on the new quote's word: the old version's evidence
    (SOURCED_FROM, ACCEPTED_IN) is not carried, its premises (DEPENDS_ON) are (`apply_correction`).
    """
    tx, known = w.tx, w.known
    old = the_current(tx, ctx.tenant, ref)
    check_correctable(old, "replaces")
    if subject is not None and subject != old.subject:
        raise InvalidInput("subject", f"a replacement keeps the subject ({old.subject!r}); remember a new fact instead")
    if predicate is not None and normalise_predicate(predicate) != old.predicate:
        raise InvalidInput("predicate", f"a replacement keeps the predicate ({old.predicate!r})")
    if object is None:
        value, name = ObjectValue(type="string", value=data.statement), data.statement
    else:
        value, name = resolve_object(tx, ctx, known, object)
    changes: dict[str, Any] = {"object": value, "object_name": name, "statement": data.statement, "quote": data.quote,
                               "evidence": Evidence.STATED, "verified_at": known,
                               "state": "active", "stale_cause": None}
    # the replacement rests on the new quote alone (its sources are not carried): an operational rule (marked now or
    # before: a rule that can change production stays one) is held again until a direct source is cited
    changes["operational"] = data.operational or old.operational
    changes["epistemic"], changes["evidence_hold"] = evidence_rules.held(data.epistemic,
                                                                         operational=changes["operational"])
    if valid_from is not None:
        changes["valid_from"], changes["valid_from_precision"] = optional_point(valid_from, "valid_from")
    if valid_to is not None:
        changes["valid_to"], changes["valid_to_precision"] = optional_point(valid_to, "valid_to")
        changes["bounded_by"] = None
    if data.scope:
        changes["scope"] = data.scope
    check_interval(changes.get("valid_from", old.valid_from), changes.get("valid_to", old.valid_to))
    return old, check_version(next_version(old, known, **changes))


def check_correctable(old: Fact, field: str) -> None:
    """Refuse correcting `old` where the lifecycle table does not allow it (a conflicted fact needs a decision)."""
    if old.state == State.CONFLICTED:
        raise InvalidInput(field, f"fact {old.fact_id} is conflicted: settle the dispute with resolve_conflict "
                           "(confirm, reject or split scopes) before replacing it")
    if old.state != State.ACTIVE:  # active -> active is a correction, not a state change
        check_transition(old.fact_id, old.state, State.ACTIVE)


def apply_correction(w: Write, old: Fact, newer: Fact, why: str, *, candidate: Fact | None = None) -> Fact:
    """Step: `old` stops being believed (a correction, its cascade runs) and `newer` is written in its place,
    carrying its premises; a `candidate` correction the person accepted gives `newer` its sources, premises and
    embedding (its statement is the candidate's). Returns `newer`."""
    retire(w, [(old, EndKind.CORRECTION.value, why)])
    if candidate is None:
        create_versions(w, [newer])
    else:
        fact_repo.create_versions(w.tx, [newer])
        fact_repo.carry_edges(w.tx, w.known, [(candidate.version_id, newer.version_id)], {newer.version_id})
    source_repo.carry_depends_on(w.tx, w.known, [(old.version_id, newer.version_id)])
    fact_repo.link_supersedes(w.tx, w.known, [(newer.version_id, old.version_id, "correction", None)])
    return newer


def propose_correction(w: Write, old: Fact, newer: Fact, plan: str) -> Fact:
    """Step: the correction of `old` written as a candidate of its own awaiting consent (`replaces` names `old`'s
    fact); nothing of `old` changes, so it keeps serving until `consent` accepts (services/gate/consent.py)."""
    candidate = newer.model_copy(update={
        "fact_id": new_id("f"), "state": State.CANDIDATE.value, "awaiting": "consent", "replaces": old.fact_id,
        "verified_at": None, "write_plan": plan, "aliases": (), "independent_sources": 0, "disputed": False})
    create_versions(w, [candidate])
    return candidate
