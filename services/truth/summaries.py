"""Derived summaries with verifying traces: add one, rebuild it (early cutoff), read them as of a known time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from credo.graph.core import ledger
from credo.graph.truth import summaries as summary_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema import commands as c
from credo.schema.cascade import Summary, SummaryInput, TraceItem
from credo.schema.errors import InvalidInput, NotFound, RaceLost
from credo.schema.pages import After, checked_key, keyed_page
from credo.schema.lifecycle import SERVED_VALUES, State, is_served
from credo.services.truth.cascade import set_state, trace_state
from credo.services.core.clearance import check_target
from credo.services.core.context import Context
from credo.services.facts.read import states_filter
from credo.services.adapters.summarizers import Summarizer
from credo.services.truth.rules import fact_hash, text_hash
from credo.services.core.versions import current_versions
from credo.services.core.unit_of_work import Write

Inputs = list[tuple[TraceItem, SummaryInput]]


def check_refs(derived_from: Any) -> list[str]:
    """A non-empty list of distinct fact, version, summary or source ids."""
    if isinstance(derived_from, str) or not isinstance(derived_from, Sequence) or not derived_from:
        raise InvalidInput("derived_from", "must be a non-empty list of fact, version, summary or source ids")
    refs: list[str] = []
    for ref in derived_from:
        ref = getattr(ref, "summary_id", None) or getattr(ref, "fact_id", ref)
        if not isinstance(ref, str) or not ref.strip():
            raise InvalidInput("derived_from", f"each input must be an id, got {ref!r}")
        if ref not in refs:
            refs.append(ref)
    return refs


def resolve(tx: Tx, tenant: str, refs: list[str], *, strict: bool = True) -> Inputs:
    """The served current version of each input with its content hash; refused (strict) or dropped if not served."""
    found: Inputs = []
    sums = summary_repo.by_ids(tx, tenant, [r for r in refs if r.startswith("sum_")])
    sources = summary_repo.source_texts(tx, tenant, [r for r in refs if not r.startswith(("f_", "v_", "sum_"))])
    for ref in refs:
        if ref.startswith(("f_", "v_")):
            try:
                served = [v for v in current_versions(tx, tenant, ref) if v.known_to is None and is_served(v.state)]
            except NotFound:
                if strict:
                    raise
                served = []
            for v in served[:1]:
                found.append((TraceItem(kind="fact", ref_id=v.fact_id, version_id=v.version_id, hash=fact_hash(v)),
                              SummaryInput(kind="fact", ref_id=v.fact_id, version_id=v.version_id, text=v.statement)))
            missing = not served
        elif ref.startswith("sum_"):
            other = sums.get(ref)
            missing = other is None or not is_served(other.state)
            if not missing:
                found.append((TraceItem(kind="summary", ref_id=ref, version_id=other.version_id, hash=other.text_hash),
                              SummaryInput(kind="summary", ref_id=ref, version_id=other.version_id, text=other.text)))
        else:
            text = sources.get(ref)
            missing = text is None
            if not missing:
                found.append((TraceItem(kind="source", ref_id=ref, version_id=ref, hash=text_hash(text)),
                              SummaryInput(kind="source", ref_id=ref, version_id=ref, text=text)))
        if missing and strict:
            raise InvalidInput("derived_from", f"{ref} names nothing served as current in this tenant")
    return found


def add_summary(ctx: Context, cmd: c.AddSummary, *, summarizer: Summarizer | None = None) -> Summary:
    """Record a derived text with its trace; with a summarizer, `text` is the topic and the summarizer writes it."""
    text, derived_from, topic = cmd.text, cmd.derived_from, cmd.topic
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("text", "must be non-empty text")
    refs = check_refs(derived_from)
    subject = text.strip() if summarizer else (topic or text.strip().splitlines()[0])
    body = None
    if summarizer is not None:
        inputs = ctx.read(lambda tx: resolve(tx, ctx.tenant, refs))
        body = summarizer.summarize(subject, [i for _t, i in inputs])  # outside the transaction: no I/O inside

    def work(w: Write) -> Summary:
        tx, known = w.tx, w.known
        inputs = resolve(tx, ctx.tenant, refs)
        final = body if body is not None else text.strip()
        summary = Summary(tenant=ctx.tenant, summary_id=new_id("sum"), version_id=new_id("sv"), topic=subject,
                          text=final, text_hash=text_hash(final), summarizer=getattr(summarizer, "name", None),
                          state=State.ACTIVE.value, known_from=known, trace=[t for t, _i in inputs])
        summary_repo.create(tx, [summary])
        ledger.audit(tx, ctx.tenant, known, [("add_summary", summary.summary_id, {"version_id": summary.version_id,
                                                                                    "inputs": len(inputs)})])
        return summary

    return ctx.write(work)


def _current(tx: Tx, tenant: str, summary_id: str) -> Summary:
    found = summary_repo.by_ids(tx, tenant, [summary_id]).get(summary_id)
    if found is None:
        raise NotFound("summary", summary_id)
    return found


def rebuild(ctx: Context, cmd: c.Rebuild, *, summarizer: Summarizer) -> Summary:
    """Re-check the trace first (unchanged inputs: green again, summarizer not run); else re-run it on the inputs
    served now. Dependents of a rebuild with the same text hash stay green (early cutoff)."""
    summary_id = cmd.summary_id
    current, breaks = ctx.read(lambda tx: _with_breaks(tx, ctx.tenant, summary_id))
    if not breaks:
        if is_served(current.state):
            return current

        def restore(w: Write) -> Summary:
            tx, known = w.tx, w.known
            _same(tx, ctx.tenant, current)
            new = set_state(tx, known, current, State.ACTIVE.value, None)
            w.changes.summaries.append(summary_id)
            return new

        return ctx.write(restore)
    refs = [t.ref_id for t in current.trace]
    inputs = ctx.read(lambda tx: resolve(tx, ctx.tenant, refs, strict=False))
    if not inputs:
        return _unserved(ctx, current, refs, f"no input is served any more: {'; '.join(breaks)}")
    body = summarizer.summarize(current.topic, [i for _t, i in inputs])

    def work(w: Write) -> Summary:
        tx, known = w.tx, w.known
        _same(tx, ctx.tenant, current)
        again = resolve(tx, ctx.tenant, refs, strict=False)
        if [t for t, _ in again] != [t for t, _ in inputs]:
            raise RaceLost(summary_id, "its inputs changed while it was being rebuilt; rebuild again")
        new = current.model_copy(update={
            "version_id": new_id("sv"), "text": body, "text_hash": text_hash(body), "summarizer": summarizer.name,
            "state": State.ACTIVE.value, "known_from": known, "known_to": None, "ended_by": None, "end_reason": None,
            "stale_cause": None, "trace": [t for t, _ in again]})
        summary_repo.close(tx, known, [(current.version_id, "rebuild", "; ".join(breaks))])
        summary_repo.create(tx, [new])
        w.changes.summaries.append(summary_id)
        ledger.audit(tx, ctx.tenant, known, [("rebuild_summary", summary_id, {
            "version_id": new.version_id, "same_text": new.text_hash == current.text_hash,
            "dropped": sorted({t.ref_id for t in current.trace} - {t.ref_id for t, _ in again})})])
        return new

    return ctx.write(work)


def _unserved(ctx: Context, current: Summary, refs: list[str], reason: str) -> Summary:
    """A rebuild with nothing served to build from: the summary is stale with the reason, never an empty text."""
    if current.state == State.STALE.value and current.stale_cause == reason:
        return current

    def work(w: Write) -> Summary:
        tx, known = w.tx, w.known
        _same(tx, ctx.tenant, current)
        if resolve(tx, ctx.tenant, refs, strict=False):
            raise RaceLost(current.summary_id, "its inputs changed while it was being rebuilt; rebuild again")
        new = set_state(tx, known, current, State.STALE.value, reason)
        w.changes.summaries.append(current.summary_id)
        return new

    return ctx.write(work)


def _with_breaks(tx: Tx, tenant: str, summary_id: str) -> tuple[Summary, list[str]]:
    current = _current(tx, tenant, summary_id)
    # a rebuild reads every input as it is now: one now above the caller's clearance makes the summary as if missing
    # to it (rebuilding without that input would change the summary for everyone on a partial view)
    for ref in dict.fromkeys(t.ref_id for t in current.trace):
        check_target(tx, tenant, ref, "summary", name=summary_id, current_only=True)
    return current, trace_state(tx, tenant, [current])[summary_id]


def _same(tx: Tx, tenant: str, seen: Summary) -> None:
    if _current(tx, tenant, seen.summary_id).version_id != seen.version_id:
        raise RaceLost(seen.summary_id, "another write changed this summary first; try again")


def summaries(ctx: Context, cmd: c.SummariesQuery, *, page: After | None = None) -> list[Summary]:
    """Summary versions believed at known_at (default now): served ones unless `states` says otherwise; a `page` is
    cut in the query by key (`.next_after`)."""
    known_at, states = cmd.known_at, cmd.states
    known = None if known_at is None else ctx.known_point(known_at)
    wanted = list(SERVED_VALUES) if states is None else states_filter(states)
    if page is None:
        return ctx.read(lambda tx: summary_repo.listed(tx, ctx.tenant, known_at=known, states=wanted))
    found = ctx.read(lambda tx: summary_repo.listed(tx, ctx.tenant, known_at=known, states=wanted, after=checked_key(page, "instant", "text"),
                                                    limit=page.limit + 1))
    return keyed_page(found, page, key=summary_repo.summary_key)


def summary(ctx: Context, cmd: c.SummaryQuery) -> Summary:
    """One summary as believed at known_at (default now), whatever its state."""
    summary_id, known_at = cmd.summary_id, cmd.known_at
    known = None if known_at is None else ctx.known_point(known_at)
    found = ctx.read(lambda tx: summary_repo.by_ids(tx, ctx.tenant, [summary_id], known))
    if summary_id not in found:
        raise NotFound("summary", summary_id)
    return found[summary_id]

