"""Re-verification of stale (or any current) facts, and the list of everything awaiting it or a rebuild."""

from __future__ import annotations

from typing import Any

from credo.graph.core import ledger
from credo.graph.truth import stale as stale_repo
from credo.graph.gate import sources as source_repo
from credo.graph.core.records import readable
from credo.graph.core.versions import ALL
from credo.schema import commands as c
from credo.schema.cascade import OUTCOMES, StaleItem, Summary
from credo.schema.errors import InvalidInput
from credo.schema.facts import EndKind, Epistemic, Fact, Listing
from credo.schema.pages import After, checked_key, keyed_page
from credo.schema.lifecycle import SERVED, State, check_transition
from credo.services.core.context import Context
from credo.services.core.flags import flag_states
from credo.services.facts import evidence_rules
from credo.services.truth.premises import link
from credo.services.core.versions import current_versions, next_version, replace, retire, the_current
from credo.services.core.unit_of_work import Write



def _evidence(evidence: Any) -> tuple[list[str], list[str], str | None]:
    """(premise fact ids, source ids, free text) from a reverify evidence argument."""
    if evidence is None:
        return [], [], None
    items = [evidence] if isinstance(evidence, str) else list(evidence)
    if not items or not all(isinstance(i, str) and i.strip() for i in items):
        raise InvalidInput("evidence", "must be text, a source id, or a list of premise fact ids / source ids")
    premises = [i for i in items if i.startswith(("f_", "v_"))]
    sources = [i for i in items if i.startswith("s_")]
    text = [i for i in items if i not in premises and i not in sources]
    return premises, sources, "; ".join(text) or None


def _check_reverifiable(fact: Fact) -> None:
    """Only stale facts (and served ones, re-confirmed) are re-verified; a dispute or a candidate needs its own act."""
    if fact.state == State.CONFLICTED:
        raise InvalidInput("fact_id", f"{fact.fact_id} is conflicted: a dispute is decided with resolve_conflict, "
                                      "not by re-verification", value=fact.fact_id)
    if fact.state == State.CANDIDATE:
        raise InvalidInput("fact_id", f"{fact.fact_id} is a candidate: it is admitted with admit (or rejected), "
                                      "not re-verified", value=fact.fact_id)
    if fact.state != State.STALE and fact.state not in SERVED:
        raise InvalidInput("fact_id", f"{fact.fact_id} is {fact.state}: only stale or served facts are re-verified",
                           value=fact.fact_id)


def reverify(ctx: Context, cmd: c.Reverify) -> Fact:
    """End a re-verification: holds (re-confirmed with new evidence), lapsed (kept as history: no longer applies
    because ...; never implies the opposite), or retracted (it was wrong)."""
    fact_id, outcome, evidence, note = cmd.fact_id, cmd.outcome, cmd.evidence, cmd.note
    if outcome not in OUTCOMES:
        raise InvalidInput("outcome", f"must be one of {list(OUTCOMES)}", value=outcome)
    premises, sources, text = _evidence(evidence)
    if outcome == "holds" and evidence is None and not (note and note.strip()):
        raise InvalidInput("evidence", "holds needs the new evidence (text, source ids or premise fact ids) or a note")

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        old = the_current(tx, ctx.tenant, fact_id)
        _check_reverifiable(old)
        cited = source_repo.by_ids(tx, ctx.tenant, sources) if sources else {}
        if sources:
            missing = set(sources) - set(cited)
            if missing:
                raise InvalidInput("evidence", f"source {sorted(missing)[0]} names nothing in this tenant")
        detail = {"outcome": outcome, "note": note, "evidence": text, "premises": premises, "sources": sources}
        if outcome == "retracted":
            reason = f"retracted on re-verification: {note or text or old.stale_cause or 'found wrong'}"
            current = [v for v in current_versions(tx, ctx.tenant, old.fact_id) if v.known_to is None]
            retire(w, [(v, EndKind.RETRACTION.value, reason) for v in current])
            ledger.audit(tx, ctx.tenant, known, [("reverify", old.fact_id, detail)])
            return old.model_copy(update={"known_to": known, "ended_by": EndKind.RETRACTION, "end_reason": reason})
        if outcome == "holds":
            confirm = (premises or sources or text) and old.epistemic != Epistemic.CONFIRMED
            if old.evidence_hold and not evidence_rules.has_direct(
                    {"kind": s.kind, "origin": s.origin} for s in cited.values()):
                confirm = False  # an operational rule is confirmed by direct evidence only (DESIGN §11)
            if confirm:
                # the claim becomes confirmed: what it says changes, so a new version (then flagged active below)
                new = next_version(old, known, epistemic=Epistemic.CONFIRMED, stale_cause=None, evidence_hold=False)
                retire(w, [(old, EndKind.STATE_CHANGE.value, "re-verified: holds (confirmed)")])
                replace(w, [(old, new)])
            else:
                new = old
            # back to served: the cascade re-checks the summaries tracing it (green again when nothing else broke)
            flag_states(w, [(new, State.ACTIVE.value, None)], kind="reverify", actor=None,
                        reason="re-verified: holds", verified_at=known, refresh=True, notify=new is old)
            new = new.model_copy(update={"state": State.ACTIVE.value, "stale_cause": None, "verified_at": known})
        else:
            because = note or text or old.stale_cause or "its premise changed"
            update: dict[str, Any] = {"lapse_reason": f"no longer applies because {because}", "stale_cause": None}
            if (old.valid_to is None or old.valid_to > known) and (old.valid_from is None or old.valid_from < known):
                update.update(valid_to=known, valid_to_precision="instant", bounded_by=None)
            check_transition(old.fact_id, old.state, State.DEPRECATED)
            # the lapse bounds the valid time and says why (a new version); the state change is its flag
            new = next_version(old, known, **update)
            retire(w, [(old, EndKind.STATE_CHANGE.value, "re-verified: lapsed")])
            replace(w, [(old, new)])
            flag_states(w, [(new, State.DEPRECATED.value, None)], kind="reverify",
                        actor=None, reason="re-verified: lapsed", notify=False)
            new = new.model_copy(update={"state": State.DEPRECATED.value})
        if premises:
            detail["justification"] = link(tx, ctx, known, [new], premises)
        if sources:
            source_repo.link_sourced_from(tx, known, [(new.version_id, s, None, None) for s in sources])
        ledger.audit(tx, ctx.tenant, known, [("reverify", old.fact_id, {**detail, "version_id": new.version_id})])
        return new

    return ctx.write(work)


def stale(ctx: Context, cmd: c.StaleQuery, *, page: After | None = None) -> list[StaleItem]:
    """Every fact awaiting re-verification and every summary awaiting a rebuild, oldest first; a `page` is cut in
    the query by key (`.next_after`)."""
    after, limit = (None, ALL) if page is None else (checked_key(page, "instant", "text", "text", "text"), page.limit + 1)
    found = ctx.read(lambda tx: stale_repo.awaiting(tx, ctx.tenant, after=after, limit=limit))
    cut = found if page is None else keyed_page(found, page, key=stale_repo.stale_key)
    skipped = readable([i for i in cut if isinstance(i, Fact)], "stale").unreadable  # named and logged, not listed
    items = Listing([_item(i) for i in cut if not isinstance(i, Fact) or i.unreadable is None], skipped)
    items.next_after = getattr(cut, "next_after", None)
    return items


def _item(found: Fact | Summary) -> StaleItem:
    if isinstance(found, Fact):
        return StaleItem(kind="fact", id=found.fact_id, version_id=found.version_id, text=found.statement,
                         since=found.known_from, cause=found.stale_cause)
    return StaleItem(kind="summary", id=found.summary_id, version_id=found.version_id, text=found.topic,
                     since=found.known_from, cause=found.stale_cause)
