"""Extraction from a whole conversation: segments revise one candidate set; only the final set is committed.

Story: claim the session's unconsumed messages; run the extractor segment by segment (nothing written);
then, in ONE transaction, refuse if messages arrived or the claim was lost, check every evidence pointer,
write the candidates, the episode summary and the consumed marks. Any failure releases the claim and
leaves no fact and no consumed mark.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from credo.graph.core import ledger
from credo.graph.gate import sources as source_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema import commands
from credo.schema.errors import EvidenceRefused, InvalidInput, RaceLost
from credo.schema.facts import Epistemic, Evidence, Fact, FactCreate
from credo.schema.lifecycle import State
from credo.schema.provenance import Candidate, ExtractionResult
from credo.schema.sources import Source
from credo.services.facts import record as record_fact
from credo.services.gate import sources as source_service
from credo.services.gate.acceptance import check_acceptance
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.adapters.extractors import Extractor, as_proposal
from credo.services.gate.rules import asked, locate, quote_hedges
from credo.services.gate.turns import eligible
from credo.services.verify.verify import verify_candidates

CLAIM_TTL = timedelta(minutes=15)


def _pending(tx: Tx, tenant: str, session_id: str) -> tuple[int, list[Source], list[dict[str, Any]]]:
    """(current generation, its messages, raw rows of its unconsumed messages)."""
    messages = source_service.session(tx, tenant, session_id)
    generation = source_service.current_generation(messages)
    rows = [r for r in source_repo.session_rows(tx, tenant, session_id) if r.get("generation") == generation]
    return generation, [m for m in messages if m.generation == generation], [r for r in rows if not r.get("consumed_by")]


def _claim(ctx: Context, session_id: str, claim_id: str) -> tuple[int, list[Source], set[str]]:
    def work(w: Write) -> tuple[int, list[Source], set[str]]:
        tx, known = w.tx, w.known
        generation, messages, rows = _pending(tx, ctx.tenant, session_id)
        held = [r for r in rows if source_repo.claim_of(r)[0] and (source_repo.claim_of(r)[1] or known) > known]
        if held:
            raise RaceLost(session_id, f"another extraction ({held[0]['claimed_by']}) holds the claim on "
                                f"message #{held[0]['index']}")
        ids = [r["source_id"] for r in rows]
        source_repo.claim(tx, ids, claim_id, known + CLAIM_TTL)
        pending = [m for m in messages if m.source_id in set(ids)]
        return generation, pending, {m.source_id for m in messages}

    return ctx.write(work)


def evidence_for(i: int, c: Candidate, by_index: dict[int, Source], generation: int) -> tuple[FactCreate, list, list]:
    """Check one candidate's evidence pointers (pure); returns its FactCreate, SOURCED_FROM and ACCEPTED_IN rows."""
    where = f"candidates[{i}]"
    source = by_index.get(c.source_index)
    if source is None:
        raise EvidenceRefused(f"{where}.source_index", f"no message at position {c.source_index} in this extraction")
    sourced: list[tuple[str, str | None, list[int] | None]] = []
    accepted: list[str] = []
    epistemic = Epistemic.CONFIRMED
    if c.quote is not None and c.quote.strip():
        if not eligible(source):
            raise EvidenceRefused(f"{where}.quote", f"message #{source.index} has origin {source.origin!r}; "
                                  "only a human message can be quoted")
        span = locate(source.text or "", c.quote)
        if span is None:
            raise EvidenceRefused(f"{where}.quote", f"does not occur verbatim in message #{source.index}")
        if asked(source.text or "", span, c.quote) is not None:
            raise EvidenceRefused(f"{where}.quote", f"a question asks, it does not state: quote a statement "
                                  f"(message #{source.index} asks it)")
        evidence, sourced = Evidence.STATED, [(source.source_id, c.quote, span)]
        epistemic = Epistemic.HYPOTHESIS if quote_hedges(source.text or "", span, c.quote) else Epistemic.CONFIRMED
    elif c.accepted_index is not None:
        accepting = by_index.get(c.accepted_index)
        if accepting is None:
            raise EvidenceRefused(f"{where}.accepted_index", f"no message at position {c.accepted_index}")
        check_acceptance(accepting, generation, field=f"{where}.accepted_index")
        evidence, sourced, accepted = Evidence.ACCEPTED, [(source.source_id, None, None)], [accepting.source_id]
    else:
        raise EvidenceRefused(where, "needs a verbatim human quote or a pointer to the human message that accepted it")
    data = record_fact.validate(
        subject=c.subject, predicate=c.predicate, object=c.object, statement=c.statement, quote=c.quote,
        kind=c.kind, valid_from=c.valid_from, valid_to=c.valid_to, scope=c.scope, evidence=evidence,
        epistemic=epistemic,
    )
    data.bounds()
    return data, sourced, accepted


def _commit(ctx: Context, session_id: str, claim_id: str, generation: int, pending: list[Source], seen: set[str],
            candidates: list[Candidate], episode: str | None, segments: int) -> ExtractionResult:
    def work(w: Write) -> ExtractionResult:
        tx, known = w.tx, w.known
        now_generation, messages, _rows = _pending(tx, ctx.tenant, session_id)
        arrived = [m for m in messages if m.source_id not in seen]
        if now_generation != generation or arrived:
            raise RaceLost(session_id, "new messages arrived during the extraction; nothing was committed")
        by_index = {m.index or 0: m for m in pending}
        checked = [evidence_for(i, c, by_index, generation) for i, c in enumerate(candidates)]
        # candidates serve nothing until admitted: no conflict rule, no reinforcement here (admit applies the rule)
        facts: list[Fact] = record_fact.record(w, ctx, [d for d, _, _ in checked], state=State.CANDIDATE,
                                               apply_rules=False)
        source_repo.link_sourced_from(tx, known, [(f.version_id, s, q, sp)
                                                  for f, (_, rows, _) in zip(facts, checked) for s, q, sp in rows])
        source_repo.link_accepted_in(tx, known, [(f.version_id, s) for f, (_, _, acc) in zip(facts, checked) for s in acc])
        lo, hi = min(by_index), max(by_index)
        text = episode or f"Session {session_id} generation {generation}, messages #{lo}-#{hi}: {len(facts)} candidate facts."
        episode_id = new_id("m")
        source_repo.create_episode(tx, ctx.tenant, known, {
            "summary_id": episode_id, "version_id": new_id("sv"), "kind": "episode", "text": text,
            "text_hash": source_repo.text_hash(text), "state": State.ACTIVE.value, "session_id": session_id,
            "generation": generation}, [(m.source_id, source_repo.text_hash(m.text)) for m in pending])
        ids = [m.source_id for m in pending]
        if source_repo.consume(tx, known, ids, claim_id) != set(ids):
            raise RaceLost(session_id, "another extractor took or consumed these messages; nothing was committed")
        ledger.audit(tx, ctx.tenant, known, [("extract", session_id, {
            "extraction_id": claim_id, "generation": generation, "facts": [f.fact_id for f in facts],
            "episode_id": episode_id, "consumed": sorted(by_index), "segments": segments})])
        return ExtractionResult(extraction_id=claim_id, session_id=session_id, generation=generation, facts=facts,
                                episode_id=episode_id, consumed=sorted(by_index), segments=segments)

    return ctx.write(work, embed=[c.statement for c in candidates])


def extract(ctx: Context, cmd: commands.Extract, *, extractor: Extractor) -> ExtractionResult:
    """Extract candidate facts from a session's unconsumed messages, committing only the final set, atomically.
    The extractor is the caller's (a runtime dependency, not a field of the command)."""
    session_id, segment_size = cmd.session_id, cmd.segment_size  # a positive integer (the command's type)
    if not callable(extractor):
        raise InvalidInput("extractor", "must be callable as extractor(segment, candidates)")
    claim_id = new_id("x")
    generation, pending, seen = _claim(ctx, session_id, claim_id)
    if not pending:
        return ExtractionResult(extraction_id=claim_id, session_id=session_id, generation=generation, facts=[],
                                episode_id=None, consumed=[], segments=0)
    try:
        candidates: list[Candidate] = []
        episode = None
        segments = [pending[i:i + segment_size] for i in range(0, len(pending), segment_size)]
        for segment in segments:
            proposal = as_proposal(extractor(segment, list(candidates)))
            candidates, episode = list(proposal.candidates), proposal.episode or episode
        result = _commit(ctx, session_id, claim_id, generation, pending, seen, candidates, episode, len(segments))
    except BaseException:
        ctx.write(lambda w: source_repo.release(w.tx, ctx.tenant, claim_id))
        raise
    # the second layer after the quote gate (DESIGN §11): each committed candidate's verdict (or its place in the
    # review queue) is recorded beside it, so a person sees an over-reach before admitting it
    verify_candidates(ctx, [f.fact_id for f in result.facts])
    return result
