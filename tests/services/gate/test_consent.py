"""Consent to a surfaced write (DESIGN §9, issue 27 item 1), on a real Neo4j: a semantic `remember` under the default
policy is written but not served until the person accepts it with a yes message; a deleted one is never served and is
forgotten, verified; both decisions are in the ledger; a message that cannot be the person's yes, or a fact that does
not await consent, is refused naming the field. Under a policy making semantic writes logged, remember serves at
once."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.errors import EvidenceRefused, InvalidInput, TransitionRefused
from tests.messages import messages

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
CLAIM = "Ana leads the billing team"


msg = messages(T0, "ana")


def surfaced(store, clock):
    """Given: Ana states a claim and the agent remembers it under the default policy; the answer and the turn's
    messages."""
    clock.at(T0)
    [said] = store.ingest_messages("s", [msg(0, "Ana leads the billing team since May.")])
    remembered = store.remember("s", CLAIM, CLAIM)
    return remembered, said


def answer(store, text, origin="human_input", role="user"):
    """The agent shows the line; the next message is the answer (returned)."""
    shown, reply = store.ingest_messages("s", [msg(1, "I will remember that: " + CLAIM, origin="agent",
                                                   role="assistant", author="agent"), msg(2, text, origin, role)])
    return shown, reply


def served(store, fact_id):
    """Whether a read serves the fact now: search, the context package's current part, facts as of now."""
    in_search = any(h.id == fact_id for h in store.search("billing team").hits)
    package = store.context("Ana")  # an undated fact is served under open/undated: anything but awaiting counts
    in_context = any(i.fact.fact_id == fact_id and i.open_kind not in ("awaiting_consent", "candidate")
                     for i in [*package.current, *package.open])
    now = store.facts(subject="Ana")
    in_facts = any(f.fact_id == fact_id for f in [*now.dated, *now.undated])
    return in_search, in_context, in_facts


def events(store, fact_id):
    return [(e.operation, e.detail.get("decision"), e.detail.get("awaiting"))
            for e in store.audit(id=fact_id).items]


def test_a_surfaced_remember_is_not_served_until_the_person_consents(store, clock):
    # given a remember under the default policy (semantic writes are surfaced)
    remembered, _said = surfaced(store, clock)
    # then it is written, awaiting consent, with the line to show the person, and nothing serves it
    assert remembered.surface == f"I will remember that: {CLAIM}"
    assert (remembered.state, remembered.awaiting) == ("candidate", "consent")
    assert served(store, remembered.fact_id) == (False, False, False)
    # and the context package lists it as something still to ask
    [item] = [i for i in store.context("Ana").open if i.fact.fact_id == remembered.fact_id]
    assert item.open_kind == "awaiting_consent" and "consent" in item.unknown
    # when the person says yes and the agent relays it
    clock.at(T0 + timedelta(minutes=3))
    _shown, yes = answer(store, "Yes, that's right.")
    done = store.consent(remembered.fact_id, "accept", message_id=yes.source_id)
    # then it is served from now on, and both the write and the consent are in the ledger
    assert (done.decision, done.fact.state, done.fact.awaiting) == ("accept", "active", None)
    assert served(store, remembered.fact_id) == (True, True, True)
    assert ("remember", None, "consent") in events(store, remembered.fact_id)
    assert ("consent", "accept", None) in events(store, remembered.fact_id)
    # and its why names the person's yes beside the quote
    assert store.why(remembered.fact_id).accepted_in.source_id == yes.source_id


def test_a_deleted_surfaced_write_is_never_served_and_is_forgotten_verified(store, clock):
    remembered, _said = surfaced(store, clock)
    # when the person deletes it
    clock.at(T0 + timedelta(minutes=3))
    done = store.consent(remembered.fact_id, "delete")
    # then it is forgotten with an empty residue report, never served, and the deletion is in the ledger
    assert done.decision == "delete" and done.forgotten.report.complete
    assert store.verify_forgotten(remembered.fact_id).complete
    assert served(store, remembered.fact_id) == (False, False, False)
    assert not any(i.fact.fact_id == remembered.fact_id for i in store.context("Ana").open)
    assert ("consent", "delete", None) in events(store, remembered.fact_id)
    # and it cannot be answered again: a forgotten fact never comes back
    with pytest.raises(TransitionRefused) as refused:
        store.consent(remembered.fact_id, "accept", message_id="s_x")
    assert remembered.fact_id in str(refused.value)


@pytest.mark.parametrize("origin, role, text", [
    ("agent", "assistant", "Yes, noted."),  # the agent's own message
    ("system_event", "system", "Yes: consent recorded."),  # a system event
    ("human_input", "user", "Wait, do I?"),  # a question accepts nothing
])
def test_consent_with_a_message_that_is_not_the_persons_yes_is_refused_naming_it(store, clock, origin, role, text):
    remembered, _said = surfaced(store, clock)
    clock.at(T0 + timedelta(minutes=3))
    _shown, reply = answer(store, text, origin, role)
    with pytest.raises(EvidenceRefused) as refused:
        store.consent(remembered.fact_id, "accept", message_id=reply.source_id)
    assert refused.value.field == "message_id"
    assert served(store, remembered.fact_id) == (False, False, False)


def test_consent_without_a_message_or_before_being_asked_is_refused(store, clock):
    remembered, said = surfaced(store, clock)
    with pytest.raises(InvalidInput) as refused:
        store.consent(remembered.fact_id, "accept")
    assert refused.value.field == "message_id"
    # the quoted message itself is no answer: the person had not been asked yet
    with pytest.raises(EvidenceRefused) as early:
        store.consent(remembered.fact_id, "accept", message_id=said.source_id)
    assert early.value.field == "message_id" and "before" in early.value.rule


def test_consent_on_a_fact_not_awaiting_it_is_refused_and_admit_cannot_bypass_it(store, clock):
    remembered, _said = surfaced(store, clock)
    direct = store.add_fact("Bob", "leads", "the sales team")
    with pytest.raises(InvalidInput) as refused:
        store.consent(direct.fact_id, "delete")
    assert refused.value.field == "fact_id" and "not awaiting consent" in refused.value.rule
    # a curator's admit does not stand in for the person's answer
    with pytest.raises(InvalidInput) as admitted:
        store.admit(remembered.fact_id, by="curator")
    assert admitted.value.field == "fact_id" and "consent" in admitted.value.rule


def test_under_a_policy_making_semantic_writes_logged_remember_serves_at_once(store, clock):
    # given the tenant's policy: semantic writes are logged, not surfaced
    store.set_write_policy({"semantic": {"visible": "logged"}})
    remembered, _said = surfaced(store, clock)
    # then remember serves at once, with nothing to show and nothing to ask
    assert (remembered.state, remembered.awaiting, remembered.surface) == ("active", None, None)
    assert served(store, remembered.fact_id) == (True, True, True)
    assert ("remember", None, None) in events(store, remembered.fact_id)


def test_a_direct_write_is_its_authors_own_act_served_at_once_and_logged(store, clock):
    clock.at(T0)
    direct = store.add_fact("Bob", "leads", "the sales team")
    plan = store.why(direct.fact_id).write_plan
    assert direct.state == "active" and (plan.visible, plan.earns) == ("logged", "written by its author")
