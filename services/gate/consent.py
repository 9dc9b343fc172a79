"""Consent (DESIGN §9): a surfaced write ("I will remember that …") waits as a candidate until the person answers.
`accept` admits it through admission (the conflict rule runs) on the word of their message saying yes; `delete`
forgets it through forgetting (tombstone, residue report, verified). Each writes one "consent" ledger event. A
candidate correction (`remember(..., replaces=)` under a surfaced policy: `replaces` names the fact it would correct,
which serves unchanged meanwhile) is applied on `accept` as that correction (`correct_on_consent`); `delete` forgets
the candidate alone.

The yes must be an eligible human message (acceptance's rules: not the agent's own, not a system event, not a pure
question, the session's current generation) that is no refusal ("No, don't"), of the session and generation the fact
was quoted from, after the quoted message (the person is answering the line they were shown), by the person quoted
(in a shared session another participant's yes consents for no one else).

A user-facing recipe's consent (services/procedural) takes the person's yes by the same rules (`answered`): what
differs is only what the line shows (the recipe's steps) and what "after" is measured from (the recipe's write)."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Any

from credo.graph.core import ledger
from credo.graph.core.db import Tx
from credo.graph.core import versions as fact_repo
from credo.graph.core.records import FAR_FUTURE
from credo.graph.gate import provenance as provenance_repo
from credo.graph.gate import sources as source_repo
from credo.schema import commands_consent as cc
from credo.schema import commands_forget as cf
from credo.schema.commands import build
from credo.schema.consent import ConsentResult, surface_line
from credo.schema.errors import EvidenceRefused, InvalidInput
from credo.schema.facts import EndKind, Fact, check_version
from credo.schema.lifecycle import State
from credo.schema.sources import Source
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.core.versions import next_version, retire, the_current
from credo.services.forget import forget as forget_service
from credo.services.gate import attest
from credo.services.gate import sources as source_service
from credo.services.gate.acceptance import check_acceptance
from credo.services.gate.admission import admit_version
from credo.services.gate.turns import apply_correction, check_correctable, eligible

# what an accepted candidate correction gives the fact it replaces (services/gate/turns.py `correction` set them)
CORRECTED = ("object", "object_name", "statement", "quote", "evidence", "epistemic", "evidence_hold", "operational",
             "valid_from", "valid_from_precision", "valid_to", "valid_to_precision", "bounded_by", "scope")

DELETED_REASON = "the person deleted it when asked for consent"
# an answer opening with a refusal says no, whatever follows ("No, don't remember that"); "no problem" is a yes
_REFUSAL = re.compile(r"^\W*(?:(?:no|nope|nah|never|stop|cancel)\b(?!\s+(?:problem|worries)\b)|don'?t\b|do not\b|"
                      r"please (?:don'?t|do not)\b|不要|别|不用|不行|不可以|不同意|算了)")


def is_refusal(text: str) -> bool:
    """Whether a person's answer opens with a refusal (English and Chinese cues; pure rule)."""
    return bool(_REFUSAL.match(unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")))


def awaiting(fact: Fact) -> Fact:
    """The fact, if it awaits consent; refused naming `fact_id` and the rule otherwise (pure rule)."""
    if fact.awaiting != "consent":
        raise InvalidInput("fact_id", f"fact {fact.fact_id} is not awaiting consent (state {fact.state}): consent "
                           "answers only a surfaced write that has not been accepted or deleted yet")
    return fact


def check_yes(message: Source, current_generation: int) -> None:
    """Refuse a message that cannot be a person's yes to anything: not an eligible human message (acceptance's rules),
    or a refusal (pure rule, field `message_id`). Consent to a fact and to a recipe both start here."""
    check_acceptance(message, current_generation, field="message_id")
    if is_refusal(message.text or ""):
        raise EvidenceRefused("message_id", f"message #{message.index} refuses (it says no): relay a refusal with "
                              "decision delete, never as consent")


def check_answer(fact_id: str, message: Source, current_generation: int, quoted: list[Source]) -> None:
    """Refuse a message that cannot be the person's yes to the surfaced fact (pure rule, fields named `message_id`)."""
    check_yes(message, current_generation)
    if not any((s.session_id, s.generation) == (message.session_id, message.generation) for s in quoted):
        sessions = ", ".join(sorted({f"{s.session_id!r} generation {s.generation}" for s in quoted})) or "none"
        raise EvidenceRefused("message_id", f"fact {fact_id} was remembered in session {sessions}; a message of "
                              f"session {message.session_id!r} generation {message.generation} does not consent to it")
    # in a shared session another participant's yes is not the quoted person's: only they consent for themselves
    persons = sorted({s.author for s in quoted if s.session_id == message.session_id and s.author})
    if persons and message.author not in persons:
        raise EvidenceRefused("message_id", f"fact {fact_id} quotes {', '.join(map(repr, persons))}; a message by "
                              f"{message.author!r} does not consent for them")
    asked_at = max((s.index or 0) for s in quoted if s.session_id == message.session_id)
    if (message.index or 0) <= asked_at:
        raise EvidenceRefused("message_id", f"message #{message.index} comes before the person was asked (the fact "
                              f"was quoted from message #{asked_at}): consent is an answer given after it")


def _plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def check_shown(fact: Fact, message: Source, quoted: list[Source], conversation: list[Source]) -> None:
    """Refuse a yes no line answers: the agent's side of the conversation (a message that is not a human's) must
    have shown the fact's statement between the quoted message and the yes (pure rule, field `message_id`)."""
    asked_at = max((s.index or 0) for s in quoted if s.session_id == message.session_id)
    if not any(showed(m, message, [fact.statement or ""]) and asked_at < (m.index or 0) for m in conversation):
        raise EvidenceRefused("message_id", f"no message between #{asked_at} and #{message.index} showed the person "
                              f"{surface_line(fact.statement)!r}: consent answers the line they were shown")


def showed(shown: Source, message: Source, texts: list[str]) -> bool:
    """Whether `shown` is the agent's side of the conversation (a message that is not a human's) showing every one
    of `texts` before `message`, in its session generation (pure rule)."""
    said = _plain(shown.text or "")
    return (shown.kind == "message" and not eligible(shown) and shown.session_id == message.session_id
            and shown.generation == message.generation and (shown.index or 0) < (message.index or 0)
            and all(_plain(t) in said for t in texts))


def the_answer(tx: Tx, tenant: str, message_id: str) -> tuple[Source, list[Source], int]:
    """The stored message `message_id`, its session's messages and the session's current generation; refused naming
    `message_id` when it names no stored message (a missing message is not consent)."""
    message = source_repo.by_ids(tx, tenant, [message_id]).get(message_id)
    if message is None or message.kind != "message" or message.session_id is None:
        raise EvidenceRefused("message_id", f"{message_id} names no stored message (a missing message is not "
                              "consent)")
    conversation = source_service.session(tx, tenant, message.session_id)
    return message, conversation, source_service.current_generation(conversation)


def answered(tx: Tx, tenant: str, message_id: str, *, texts: list[str], asked_at: datetime, line: str) -> Source:
    """The person's yes to a line shown to them about something written at `asked_at` that no message quoted (a
    user-facing recipe): an eligible human message, not a refusal, of its session's current generation, after an agent
    message showing every one of `texts`, both written (known to the store) at or after `asked_at`; refused naming
    `message_id` otherwise. The same rules as consent to a fact, with the store's clock in place of the quote."""
    message, conversation, current = the_answer(tx, tenant, message_id)
    check_yes(message, current)
    if message.known_from < asked_at or not any(showed(m, message, texts) and m.known_from >= asked_at
                                                  for m in conversation):
        raise EvidenceRefused("message_id", f"no message before #{message.index}, written after it was asked for, "
                              f"showed the person {line!r}: consent answers the line they were shown")
    return message


def consent(ctx: Context, cmd: cc.Consent, *, probes: dict[str, Any] | None = None) -> ConsentResult:
    """The person's answer to a surfaced write: accept serves it (admitted), delete forgets it (verified)."""
    if cmd.decision == "delete":
        return _delete(ctx, cmd.fact_id, probes)
    if cmd.message_id is None:
        raise InvalidInput("message_id", "accepting needs the person's message that says yes (its id, s_...): a "
                           "surfaced write serves only on the person's word")
    message_id = cmd.message_id

    def work(w: Write) -> ConsentResult:
        tx = w.tx
        fact = awaiting(the_current(tx, ctx.tenant, cmd.fact_id))
        message, conversation, current = the_answer(tx, ctx.tenant, message_id)
        quoted = [s for s in source_repo.by_ids(tx, ctx.tenant, _quoted_ids(tx, ctx, fact)).values()
                  if s.kind == "message"]
        check_answer(fact.fact_id, message, current, quoted)
        attest.check_vouched(tx, ctx, w.known, [message], field="message_id", use="consent")
        check_shown(fact, message, quoted, conversation)
        by = f"the person's consent in message #{message.index}"
        newer = correct_on_consent(w, ctx, fact, by) if fact.replaces else admit_version(w, ctx, fact, by)
        source_repo.link_accepted_in(tx, w.known, [(newer.version_id, message.source_id)])
        ledger.audit(tx, ctx.tenant, w.known, [("consent", fact.fact_id, {
            "decision": "accept", "version_id": newer.version_id, "source_id": message.source_id,
            "state": newer.state, **({"replaces": fact.replaces} if fact.replaces else {})})])
        return ConsentResult(fact_id=fact.fact_id, decision="accept", fact=newer)

    return ctx.write(work)


def correct_on_consent(w: Write, ctx: Context, candidate: Fact, by: str) -> Fact:
    """Step: apply an accepted candidate correction to the fact it replaces, exactly as `remember(..., replaces=)`
    corrects under a logged policy (the old version ends as a correction, its cascade runs, its premises are carried),
    with the candidate's content, quote, sources and premises; the candidate itself ends, merged into that correction.
    Refused (naming `fact_id`) when the replaced fact can no longer be corrected (conflicted, rejected, forgotten)."""
    tx, known = w.tx, w.known
    old = the_current(tx, ctx.tenant, candidate.replaces or "")
    check_correctable(old, "fact_id")
    newer = check_version(next_version(old, known, verified_at=known, state=State.ACTIVE.value, stale_cause=None,
                                       **{k: getattr(candidate, k) for k in CORRECTED}))
    apply_correction(w, old, newer, f"replaced by a remembered human statement ({by})", candidate=candidate)
    retire(w, [(candidate, EndKind.MERGE.value, f"applied as the correction of fact {old.fact_id} on {by}")])
    fact_repo.link_supersedes(tx, known, [(newer.version_id, candidate.version_id, "merge", None)])
    return newer


def _quoted_ids(tx: Tx, ctx: Context, fact: Fact) -> list[str]:
    """The ids of the sources the fact's current version was written from (the quoted message)."""
    return [e.source.source_id for e in provenance_repo.of_version(tx, fact.version_id, FAR_FUTURE).sources]


def _delete(ctx: Context, fact_id: str, probes: dict[str, Any] | None) -> ConsentResult:
    """Forget the awaiting fact (every version, verified by its residue report), then record the decision; the
    tombstone says it was forgotten on behalf of the person quoted."""

    def read(tx: Tx) -> tuple[Fact, str]:
        fact = awaiting(the_current(tx, ctx.tenant, fact_id))
        authors = [s.author for s in source_repo.by_ids(tx, ctx.tenant, _quoted_ids(tx, ctx, fact)).values()
                   if s.kind == "message" and s.author]
        return fact, authors[0] if authors else "the person asked for consent"

    fact, person = ctx.read(read)
    forgotten = forget_service.forget(ctx, build(cf.Forget, target_id=fact.fact_id, reason=DELETED_REASON,
                                                 actor=person), probes=probes)
    ctx.write(lambda w: ledger.audit(w.tx, ctx.tenant, w.known, [("consent", fact.fact_id, {
        "decision": "delete", "report_complete": forgotten.report.complete})]))
    return ConsentResult(fact_id=fact.fact_id, decision="delete", forgotten=forgotten)
