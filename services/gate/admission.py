"""Admission: extracted facts start as `candidate`; a person or a named policy admits or rejects them."""

from __future__ import annotations

from credo.graph.core import ledger
from credo.graph.facts import conflicts as conflict_repo
from credo.graph.core.ledger import new_id
from credo.schema import commands as c
from credo.schema.errors import InvalidInput
from credo.schema.facts import EndKind, Fact
from credo.schema.lifecycle import State, check_transition
from credo.schema.names import clean_text
from credo.services.facts import predicates as predicate_service
from credo.services.core.context import Context
from credo.services.core.versions import next_version, replace, retire, the_current
from credo.services.core.unit_of_work import Write
from credo.services.policy import plan as write_policy


def admit(ctx: Context, cmd: c.Admit) -> Fact:
    """Admit a candidate as current knowledge; a clash with an established value is kept as `conflicted`."""
    fact_id, by = cmd.fact_id, cmd.by
    if not isinstance(by, str) or not by.strip():
        raise InvalidInput("by", "name who admits it (a person, or a policy that names its evidence)")

    def work(w: Write) -> Fact:
        fact = the_current(w.tx, ctx.tenant, fact_id)
        if fact.awaiting == "consent":
            raise InvalidInput("fact_id", f"fact {fact.fact_id} awaits the person's consent (a surfaced write, DESIGN "
                               "§9): relay their answer with consent, not admit")
        newer = admit_version(w, ctx, fact, by.strip())
        ledger.audit(w.tx, ctx.tenant, w.known, [("admit", fact.fact_id, {"version_id": newer.version_id,
                                                                          "by": by.strip(), "state": newer.state})])
        return newer

    return ctx.write(work)


def admit_version(w: Write, ctx: Context, fact: Fact, by: str) -> Fact:
    """Step: the candidate `fact` admitted by `by` inside the write `w` (the conflict rule runs: a clash with an
    established value is kept `conflicted`); returns the new version. The caller writes the ledger event."""
    tx, known = w.tx, w.known
    check_transition(fact.fact_id, fact.state, State.ACTIVE)
    # an episode conflicts with nothing (append-only, DESIGN §9): admitting one applies no conflict rule
    decision = None if fact.kind == "episodic" else predicate_service.decide_in_slot(tx, ctx.tenant, fact)
    state = State.CONFLICTED if decision is not None and decision.outcome == "conflict" else State.ACTIVE
    newer = next_version(fact, known, state=state.value, verified_at=known, awaiting=None,
                         write_plan=write_policy.stamp(w, fact, fact.kind))  # admitted under today's policy
    retire(w, [(fact, EndKind.STATE_CHANGE.value, f"admitted by {by}")])
    replace(w, [(fact, newer)])
    if state == State.CONFLICTED:
        cid = new_id("c")
        conflict_repo.open_conflicts(tx, known, [(cid, newer.version_id, e.version_id) for e in decision.against])
    return newer


def reject(ctx: Context, cmd: c.Reject) -> Fact:
    """Reject a candidate (or a disputed or stale version); it is kept, never served."""
    fact_id, reason = cmd.fact_id, cmd.reason
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("reason", "a rejection must say why")
    reason = clean_text(reason, "reason")

    def work(w: Write) -> Fact:
        tx, known = w.tx, w.known
        fact = the_current(tx, ctx.tenant, fact_id)
        check_transition(fact.fact_id, fact.state, State.REJECTED)
        if fact.state == State.CONFLICTED:
            # rejecting a challenger is a decision on its dispute: close it, so the established value is undisputed
            for conflict in conflict_repo.conflicts(tx, ctx.tenant):
                if conflict.challenger.fact_id == fact.fact_id:
                    conflict_repo.close_conflict(tx, known, conflict.conflict_id, "reject")
        newer = next_version(fact, known, state=State.REJECTED.value, end_reason=reason.strip())
        retire(w, [(fact, EndKind.STATE_CHANGE.value, f"rejected: {reason.strip()}")])
        replace(w, [(fact, newer)])
        ledger.audit(tx, ctx.tenant, known, [("reject", fact.fact_id, {"version_id": newer.version_id,
                                                                       "reason": reason.strip()})])
        return newer

    return ctx.write(work)
