"""Verification's entry points: `verify` runs the configured verifier on a fact version (or queues it for a person),
`review_queue` lists what waits for a person, `review` records a person's decision (DESIGN §11).

The verifier comes from the composition root (credo/bootstrap.py `verifier_for`, CREDO_VERIFIER) through the
context, so every surface runs the same one. It is called between two transactions (it may talk to a network): the
version and its excerpt are read first, the verdict written after, with one ledger event. A verdict never changes the
version's evidence, epistemic status or state.
"""

from __future__ import annotations

import logging
from contextlib import nullcontext
from typing import Any

from credo.graph.core import ledger
from credo.graph.core import versions as fact_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.graph.core.records import FAR_FUTURE
from credo.graph.gate import provenance as provenance_repo
from credo.graph.gate import sources as source_repo
from credo.graph.verify import reviews as review_repo
from credo.graph.verify import verifications as verification_repo
from credo.schema import commands as c
from credo.schema import commands_verify as cv
from credo.schema.errors import InvalidInput, NotFound, RateLimited, UpstreamFailed
from credo.schema.facts import Fact, Listing
from credo.schema.pages import After, checked_key, instant_key, keyed_page
from credo.schema.verify import Excerpt, ReviewItem, Verdict, VerifiedBy, VerifyOutcome
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.facts import revise

log = logging.getLogger("credo.verify")
NO_VERIFIER = "no verifier is configured (CREDO_VERIFIER=none): the fact reads 'not verified'"
DECIDED = {"approve": ("approved", "supported"), "reject": ("rejected", "unsupported"), "edit": ("edited", "supported")}


def verify(ctx: Context, cmd: cv.Verify) -> VerifyOutcome:
    """Judge a fact version against its excerpt with the configured verifier and record the verdict; with the
    review queue, queue it for a person (once: a version already pending answers its item)."""
    verifier = ctx.verifier

    def look(tx: Tx) -> tuple[Fact, Excerpt]:
        found = _version(tx, ctx.tenant, cmd.fact_id)
        if found.tombstone is not None:
            raise InvalidInput("fact_id", f"{cmd.fact_id} was forgotten: there is nothing left to verify")
        return found, _excerpt(tx, ctx.tenant, found)

    fact, excerpt = ctx.read(look)
    if verifier is None:
        return VerifyOutcome(fact_id=fact.fact_id, version_id=fact.version_id, status="not verified", note=NO_VERIFIER)
    if getattr(verifier, "name", None) == "review":
        return _enqueue(ctx, fact, excerpt)
    bound = getattr(verifier, "bound", None)  # a costly verifier's per-tenant bound (services/verify/limits.py)
    with bound.slot(ctx.tenant) if bound is not None else nullcontext():
        verdict = verifier.verify(fact.statement, excerpt)  # outside any transaction: it may wait on a network
    recorded = ctx.write(lambda w: _record(w, fact, verdict, verifier=verifier.name, actor=None))
    return VerifyOutcome(fact_id=fact.fact_id, version_id=fact.version_id, status="verified", verified_by=recorded)


def verify_candidates(ctx: Context, fact_ids: list[str]) -> list[VerifyOutcome]:
    """After extraction committed its candidates: the configured verifier's verdict on each (recorded, or queued for
    a person), so it is visible beside the candidate before anyone admits it. Nothing without a verifier; an
    endpoint that fails leaves that candidate "not verified" (logged; `verify` can be run again) and never undoes
    the extraction."""
    if ctx.verifier is None:
        return []
    done: list[VerifyOutcome] = []
    for fact_id in fact_ids:
        try:
            done.append(verify(ctx, cv.Verify(fact_id=fact_id)))
        except (UpstreamFailed, RateLimited) as failed:  # over the tenant's bound: left "not verified" too
            log.warning("verifier failed on candidate %s: %s", fact_id, failed)
    return done


def review_queue(ctx: Context, cmd: cv.ReviewQueueQuery, *, page: After | None = None) -> list[ReviewItem]:
    """The pending items the caller may see, oldest first, each candidate beside its excerpt; a `page` is cut in the
    query by key (`.next_after`)."""
    after, limit = (None, fact_repo.ALL) if page is None else (checked_key(page, "instant", "text"), page.limit + 1)

    def work(tx: Tx) -> list[ReviewItem]:
        rows = review_repo.pending(tx, ctx.tenant, after=after, limit=limit)
        return [_review_item(tx, ctx.tenant, r) for r in rows]

    found = ctx.read(work)
    cut = found if page is None else keyed_page(found, page, key=lambda i: [instant_key(i.requested_at), i.item_id])
    items = Listing(list(cut))
    items.next_after = getattr(cut, "next_after", None)
    return items


def review(ctx: Context, cmd: cv.Review) -> ReviewItem:
    """A person's decision on a pending item: approve (supported), reject (unsupported), or edit: the statement is
    corrected through the normal correct path (its own write), then the corrected version is approved."""
    found = ctx.read(lambda tx: review_repo.item(tx, ctx.tenant, cmd.item_id))
    if found is None:
        raise NotFound("review item", cmd.item_id)
    if found["state"] != "pending":
        raise InvalidInput("item_id", f"review item {cmd.item_id} was already decided ({found['state']})")
    fact = ctx.read(lambda tx: _version(tx, ctx.tenant, found["version_id"]))
    if cmd.decision == "edit":
        fact = revise.correct_fact(ctx, c.CorrectFact(fact_id=fact.fact_id, statement=cmd.statement))
    state, verdict_name = DECIDED[cmd.decision]
    reason = cmd.reason or {"approve": "approved by a person", "reject": "rejected by a person",
                            "edit": "corrected and approved by a person"}[cmd.decision]

    def work(w: Write) -> ReviewItem:
        recorded = _record(w, fact, Verdict(verdict=verdict_name, reason=reason), verifier="review",
                           actor=ctx.actor, item_id=cmd.item_id)
        decided = review_repo.decide(w.tx, ctx.tenant, cmd.item_id, state=state, known=w.known, decided_by=ctx.actor,
                                     verification_id=recorded.verification_id)
        if decided is None:  # a concurrent decision took it first
            raise InvalidInput("item_id", f"review item {cmd.item_id} was already decided")
        return _review_item(w.tx, ctx.tenant, decided, verified_by=recorded)

    return ctx.write(work)


# -- steps -----------------------------------------------------------------------------------------
def _version(tx: Tx, tenant: str, ref: str) -> Fact:
    """The version a ref names: a version id, or a fact id's current version (else its latest)."""
    if ref.startswith("v_"):
        found = fact_repo.version(tx, tenant, ref)
        if found is None:
            raise NotFound("fact version", ref)
        return found
    versions = fact_repo.versions_of(tx, tenant, ref)
    if not versions:
        raise NotFound("fact", ref)
    current = [v for v in versions if v.known_to is None]
    return max(current or versions, key=lambda v: v.known_from)


def _excerpt(tx: Tx, tenant: str, fact: Fact) -> Excerpt:
    """The version's first quoted source the caller may see: the quote and the text of its message."""
    edges = provenance_repo.of_version(tx, fact.version_id, FAR_FUTURE).sources
    if not edges:
        return Excerpt()
    edge = next((e for e in edges if e.quote), edges[0])
    source = source_repo.by_ids(tx, tenant, [edge.source.source_id]).get(edge.source.source_id)
    return Excerpt(quote=edge.quote, text=None if source is None else source.text, source_id=edge.source.source_id)


def _record(w: Write, fact: Fact, verdict: Verdict, *, verifier: str, actor: str | None,
            item_id: str | None = None) -> VerifiedBy:
    row = {"verification_id": new_id("vb"), "fact_id": fact.fact_id, "version_id": fact.version_id,
           "verifier": verifier, "verdict": verdict.verdict, "overreach_kind": verdict.overreach_kind,
           "reason": verdict.reason, "actor": actor}
    recorded = verification_repo.record(w.tx, w.tenant, w.known, row, subject_id=fact.subject_id)
    ledger.audit(w.tx, w.tenant, w.known, [("review" if item_id else "verify", fact.fact_id, {
        "version_id": fact.version_id, "verification_id": row["verification_id"], "verifier": verifier,
        "verdict": verdict.verdict, "overreach_kind": verdict.overreach_kind,
        **({"item_id": item_id} if item_id else {})})])
    return recorded


def _enqueue(ctx: Context, fact: Fact, excerpt: Excerpt) -> VerifyOutcome:
    def work(w: Write) -> dict[str, Any]:
        existing = review_repo.pending_of(w.tx, w.tenant, fact.version_id)
        if existing is not None:
            return existing
        row = {"item_id": new_id("rq"), "fact_id": fact.fact_id, "version_id": fact.version_id,
               "requested_by": ctx.actor}
        made = review_repo.enqueue(w.tx, w.tenant, w.known, row)
        if made is None:
            raise NotFound("fact version", fact.version_id)
        ledger.audit(w.tx, w.tenant, w.known, [("review_requested", fact.fact_id, {
            "version_id": fact.version_id, "item_id": row["item_id"]})])
        return made

    row = ctx.write(work)
    item = _as_item(row, fact.statement, excerpt)
    return VerifyOutcome(fact_id=fact.fact_id, version_id=fact.version_id, status="queued", review_item=item)


def _review_item(tx: Tx, tenant: str, row: dict[str, Any], verified_by: VerifiedBy | None = None) -> ReviewItem:
    fact = fact_repo.version(tx, tenant, row["version_id"])
    statement = fact.statement if fact is not None else ""
    excerpt = _excerpt(tx, tenant, fact) if fact is not None else Excerpt()
    return _as_item(row, statement, excerpt, verified_by)


def _as_item(row: dict[str, Any], statement: str, excerpt: Excerpt,
             verified_by: VerifiedBy | None = None) -> ReviewItem:
    fields = {k: v for k, v in row.items() if k in ReviewItem.model_fields and v is not None}
    return ReviewItem(**fields, statement=statement, excerpt=excerpt, verified_by=verified_by)
