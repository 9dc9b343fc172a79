"""Acceptance: a human message accepts an agent's conclusion (evidence `accepted`, DESIGN §3)."""

from __future__ import annotations

from credo.graph.core import ledger
from credo.graph.gate import provenance as provenance_repo
from credo.graph.gate import sources as source_repo
from credo.graph.core.records import FAR_FUTURE
from credo.schema import commands as c
from credo.schema.errors import EvidenceRefused
from credo.schema.facts import EVIDENCE_ORDER, EndKind, Evidence, Fact
from credo.schema.sources import Source
from credo.services.gate import attest
from credo.services.gate import sources as source_service
from credo.services.core.context import Context
from credo.services.gate.turns import eligible, is_pure_question
from credo.services.core.versions import next_version, replace, retire, the_current
from credo.services.core.unit_of_work import Write


def check_acceptance(message: Source, current_generation: int, field: str = "message") -> None:
    """Refuse a pointer that is not eligible human acceptance (pure rule over the stored message)."""
    if not eligible(message):
        raise EvidenceRefused(field, f"message #{message.index} has origin {message.origin!r}: the agent's own "
                              "messages, system events and machine results accept nothing")
    if is_pure_question(message.text or ""):
        raise EvidenceRefused(field, f"message #{message.index} only asks a question; a question accepts nothing")
    if message.generation != current_generation:
        raise EvidenceRefused(f"{field}.generation", f"message #{message.index} is from generation "
                              f"{message.generation}; the session is at generation {current_generation}")


def check_same_conversation(fact_id: str, message: Source, conclusion: list[Source]) -> None:
    """Refuse an acceptance outside the session generation of the conclusion's own messages (pure rule).

    A conclusion's conversation is the session and generation of the messages among its sources (the agent's
    message that concluded it, cited or extracted); a fact with no such message names no conversation, so no
    human message can accept it: cite the agent's message first.
    """
    if not conclusion:
        raise EvidenceRefused("fact_id", f"fact {fact_id} names no conversation message among its sources; cite the "
                              "agent's message that concluded it before a human message can accept it")
    if not any(s.session_id == message.session_id for s in conclusion):
        sessions = ", ".join(sorted({repr(s.session_id) for s in conclusion}))
        raise EvidenceRefused("message.session_id", f"the conclusion was stated in session {sessions}; a message of "
                              f"session {message.session_id!r} does not accept it")
    if not any((s.session_id, s.generation) == (message.session_id, message.generation) for s in conclusion):
        gens = ", ".join(str(s.generation) for s in conclusion if s.session_id == message.session_id)
        raise EvidenceRefused("message.generation", f"the conclusion was stated in generation {gens}; an "
                              f"acceptance from generation {message.generation} does not count")


def stronger(current: Evidence, offered: Evidence) -> Evidence:
    """The stronger of two evidence kinds (acceptance never weakens a stated claim)."""
    return max(current, offered, key=EVIDENCE_ORDER.index)


def accept(ctx: Context, cmd: c.Accept) -> Fact:
    """Record that a human message accepted the fact; returns the new version (evidence at least `accepted`)."""
    fact_id, ref = cmd.fact_id, source_service.parse_ref(cmd.message)

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        fact = the_current(tx, ctx.tenant, fact_id)
        found, current_generation = source_service.find_message(tx, ctx.tenant, ref)
        check_acceptance(found, current_generation)
        attest.check_vouched(tx, ctx, known, [found], field="message", use="accept")
        own = provenance_repo.of_version(tx, fact.version_id, FAR_FUTURE)
        check_same_conversation(fact.fact_id, found, [e.source for e in own.sources if e.source.kind == "message"])
        newer = next_version(fact, known, evidence=stronger(fact.evidence, Evidence.ACCEPTED), verified_at=known)
        retire(w, [(fact, EndKind.STATE_CHANGE.value, f"accepted in message #{found.index}")])
        replace(w, [(fact, newer)])
        source_repo.link_accepted_in(tx, known, [(newer.version_id, found.source_id)])
        ledger.audit(tx, ctx.tenant, known, [("accept", fact.fact_id, {"version_id": newer.version_id,
                                                                       "source_id": found.source_id})])
        return newer

    return ctx.write(work)
