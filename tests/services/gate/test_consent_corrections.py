"""A `replaces` correction through `remember` waits for consent too (DESIGN §9, issue 27 item 1), on a real Neo4j:
under the default policy (semantic writes surfaced) the correction is written as a candidate awaiting consent and
the version it would replace keeps serving (search, context, facts, as-of reads); the person's yes applies it as a
correction (the old version superseded, its dependants flagged by the cascade), their delete forgets the candidate
and leaves the old version untouched; both are in the ledger. Under a logged policy it still corrects at once."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.errors import EvidenceRefused, InvalidInput
from tests.messages import messages

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
OLD = "Ana leads the billing team"
NEW = "Ana leads the payments team"


msg = messages(T0, "ana")


def agent(index, text):
    return msg(index, text, origin="agent", role="assistant", author="agent")


@pytest.fixture
def established(store, clock):
    """Given: Ana's claim, remembered and accepted (served), and a fact resting on it (its dependant)."""
    clock.at(T0)
    store.ingest_messages("s", [msg(0, "Ana leads the billing team.")])
    first = store.remember("s", OLD, OLD)
    clock.at(T0 + timedelta(minutes=3))
    _shown, yes = store.ingest_messages("s", [agent(1, "I will remember that: " + OLD), msg(2, "Yes.")])
    old = store.consent(first.fact_id, "accept", message_id=yes.source_id).fact
    dependant = store.add_fact("billing", "escalates_to", "Ana", depends_on=[old.fact_id])
    return old, dependant


def statements_served(store):
    """What the reads serve about Ana now: the statements of `facts` and of the context package (not awaiting)."""
    package = store.context("Ana")
    now = store.facts(subject="Ana")
    return ({f.statement for f in [*now.dated, *now.undated]},
            {i.fact.statement for i in [*package.current, *package.open]  # an undated fact is served under open
             if i.open_kind not in ("awaiting_consent", "candidate")})


def since(store, old):
    """The fact's versions from `old` on, as (statement, how it ended)."""
    history = [v.version_id for v in store.history(old.fact_id)]
    return [(v.statement, v.ended_by) for v in store.history(old.fact_id)[history.index(old.version_id):]]


def remember_correction(store, clock, old):
    clock.at(T0 + timedelta(minutes=10))
    store.ingest_messages("s", [agent(3, "Noted."), msg(4, "Correction: Ana leads the payments team now.")])
    return store.remember("s", NEW, NEW, replaces=old.fact_id)


def answer(store, clock, text="Yes, right."):
    clock.at(T0 + timedelta(minutes=12))
    _shown, reply = store.ingest_messages("s", [agent(5, "I will remember that: " + NEW), msg(6, text)])
    return reply


def test_a_correction_waits_for_consent_and_the_old_version_keeps_serving(store, clock, established):
    old, dependant = established
    # when the correction is remembered under the default policy
    candidate = remember_correction(store, clock, old)
    # then it is a candidate of its own awaiting consent, naming the fact it would correct, with the line to show
    assert (candidate.state, candidate.awaiting, candidate.replaces) == ("candidate", "consent", old.fact_id)
    assert candidate.fact_id != old.fact_id and candidate.surface == f"I will remember that: {NEW}"
    # and the old version keeps serving on every read: facts, context, search, and its history is unchanged
    facts, context = statements_served(store)
    assert OLD in facts and NEW not in facts and OLD in context and NEW not in context
    assert not any(h.id == candidate.fact_id for h in store.search("payments team").hits)
    assert since(store, old) == [(OLD, None)]
    assert store.history(dependant.fact_id)[-1].state == "active"
    [item] = [i for i in store.context("Ana").open if i.fact.fact_id == candidate.fact_id]
    assert item.open_kind == "awaiting_consent"
    # when the person says yes
    yes = answer(store, clock)
    at_yes = T0 + timedelta(minutes=12)
    done = store.consent(candidate.fact_id, "accept", message_id=yes.source_id)
    # then the old fact is corrected exactly as a direct correction would: a new version of the same fact, the old
    # one ended as a correction, its dependant flagged stale by the cascade
    assert (done.fact.fact_id, done.fact.statement, done.fact.state) == (old.fact_id, NEW, "active")
    assert since(store, old) == [(OLD, "correction"), (NEW, None)]
    assert store.history(dependant.fact_id)[-1].state == "stale"
    facts, context = statements_served(store)
    assert NEW in facts and OLD not in facts and NEW in context
    # and its why rests on the correcting quote and the person's yes; the candidate serves nothing on its own
    tree = store.why(old.fact_id)
    assert [s.index for s in tree.sources] == [4] and tree.accepted_in.source_id == yes.source_id
    assert sorted((link.kind, link.version_id) for link in tree.supersedes) == [
        ("correction", old.version_id), ("merge", candidate.version_id)]
    assert not any(i.fact.fact_id == candidate.fact_id for i in store.context("Ana").open)
    # and an as-of read before the yes still gives the old version
    before = store.facts(subject="Ana", known_at=at_yes)
    assert {f.statement for f in [*before.dated, *before.undated]} == {OLD}
    # and both acts are in the ledger
    assert [(e.operation, e.detail.get("awaiting"), e.detail.get("replaces"))
            for e in store.audit(id=candidate.fact_id).items if e.operation == "remember"] == [
        ("remember", "consent", old.fact_id)]
    assert [(e.detail.get("decision"), e.detail.get("replaces")) for e in store.audit(id=candidate.fact_id).items
            if e.operation == "consent"] == [("accept", old.fact_id)]


def test_a_deleted_correction_is_forgotten_and_the_old_version_is_untouched(store, clock, established):
    old, dependant = established
    candidate = remember_correction(store, clock, old)
    # when the person deletes it
    clock.at(T0 + timedelta(minutes=12))
    done = store.consent(candidate.fact_id, "delete")
    # then the candidate is forgotten (verified) and the old fact is exactly as it was, still served
    assert done.decision == "delete" and done.forgotten.report.complete
    assert since(store, old) == [(OLD, None)]
    assert store.history(dependant.fact_id)[-1].state == "active"
    facts, _context = statements_served(store)
    assert OLD in facts and NEW not in facts
    assert ("consent", "delete") in [(e.operation, e.detail.get("decision"))
                                     for e in store.audit(id=candidate.fact_id).items]


def test_consent_to_a_correction_keeps_consents_rules(store, clock, established):
    old, _dependant = established
    candidate = remember_correction(store, clock, old)
    # a refusal, or a yes before the line was shown, is refused naming message_id; nothing changes
    no = answer(store, clock, "No, don't.")
    with pytest.raises(EvidenceRefused, match="refuses"):
        store.consent(candidate.fact_id, "accept", message_id=no.source_id)
    with pytest.raises(InvalidInput, match="message_id"):
        store.consent(candidate.fact_id, "accept")
    assert since(store, old) == [(OLD, None)]
    # and admit cannot bypass the person
    with pytest.raises(InvalidInput, match="consent"):
        store.admit(candidate.fact_id, by="ops")


def test_a_correction_under_a_logged_policy_corrects_at_once(store, clock, established):
    old, _dependant = established
    store.set_write_policy({"semantic": {"visible": "logged"}})
    newer = remember_correction(store, clock, old)
    assert (newer.fact_id, newer.state, newer.awaiting, newer.surface) == (old.fact_id, "active", None, None)
    assert since(store, old) == [(OLD, "correction"), (NEW, None)]
