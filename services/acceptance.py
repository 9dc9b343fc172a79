"""Acceptance: a human message accepts an agent's conclusion (evidence `accepted`, DESIGN §3)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph import ledger
from credo.graph import provenance as provenance_repo
from credo.graph import sources as source_repo
from credo.graph.db import Tx
from credo.graph.records import FAR_FUTURE
from credo.schema.errors import EvidenceRefused
from credo.schema.facts import EVIDENCE_ORDER, EndKind, Evidence, Fact
from credo.schema.sources import Source
from credo.services import sources as source_service
from credo.services.context import Context
from credo.services.turns import eligible, is_pure_question
from credo.services.versions import next_version, replace, retire, the_current


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


def stronger(current: Evidence, offered: Evidence) -> Evidence:
    """The stronger of two evidence kinds (acceptance never weakens a stated claim)."""
    return max(current, offered, key=EVIDENCE_ORDER.index)


def accept(ctx: Context, *, fact_id: str, message: Any) -> Fact:
    """Record that a human message accepted the fact; returns the new version (evidence at least `accepted`)."""
    ref = source_service.parse_ref(message)

    def work(tx: Tx, known: datetime) -> Fact:
        fact = the_current(tx, ctx.tenant, fact_id)
        found, current_generation = source_service.find_message(tx, ctx.tenant, ref)
        check_acceptance(found, current_generation)
        own = provenance_repo.of_version(tx, fact.version_id, FAR_FUTURE)
        for edge in own.sources:
            s = edge.source
            if s.kind == "message" and s.session_id == found.session_id and s.generation != found.generation:
                raise EvidenceRefused("message.generation", f"the conclusion was stated in generation {s.generation}; "
                                      f"an acceptance from generation {found.generation} does not count")
        newer = next_version(fact, known, evidence=stronger(fact.evidence, Evidence.ACCEPTED), verified_at=known)
        retire(tx, known, [(fact, EndKind.STATE_CHANGE.value, f"accepted in message #{found.index}")])
        replace(tx, known, [(fact, newer)])
        source_repo.link_accepted_in(tx, known, [(newer.version_id, found.source_id)])
        ledger.audit(tx, ctx.tenant, known, [("accept", fact.fact_id, {"version_id": newer.version_id,
                                                                       "source_id": found.source_id})])
        return newer

    return ctx.write(work)
