"""Consent under attack (issue 27's security pass): only the person quoted can say yes to what they were shown; a
bystander in the same session (another human participant) cannot consent for them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from credo.schema.errors import EvidenceRefused
from tests.services.gate.test_consent import CLAIM, T0, msg, served, surfaced


def test_another_participants_yes_in_the_same_session_does_not_consent_for_the_person_quoted(store, clock):
    # given Ana's surfaced claim, shown to her in a shared session
    remembered, _said = surfaced(store, clock)
    clock.at(T0 + timedelta(minutes=3))
    _shown, bystander = store.ingest_messages("s", [
        msg(1, "I will remember that: " + CLAIM, origin="agent", role="assistant", author="agent"),
        msg(2, "Yes, remember it.", author="bob")])
    # when Bob's yes is relayed as Ana's consent, then it is refused naming message_id, and nothing is served
    with pytest.raises(EvidenceRefused) as refused:
        store.consent(remembered.fact_id, "accept", message_id=bystander.source_id)
    assert refused.value.field == "message_id" and "bob" in refused.value.rule
    assert served(store, remembered.fact_id) == (False, False, False)
    # and Ana's own yes, later, still consents
    [yes] = store.ingest_messages("s", [msg(3, "Yes.")])
    assert store.consent(remembered.fact_id, "accept", message_id=yes.source_id).fact.state == "active"


@pytest.mark.parametrize("text", ["No.", "No, don't remember that.", "nope", "Don't.", "Do not keep it", "Please don't",
                                  "不要记住", "别记这个", "算了"])
def test_the_persons_no_relayed_as_accept_is_refused_naming_message_id(store, clock, text):
    remembered, _said = surfaced(store, clock)
    clock.at(T0 + timedelta(minutes=3))
    _shown, reply = store.ingest_messages("s", [
        msg(1, "I will remember that: " + CLAIM, origin="agent", role="assistant", author="agent"), msg(2, text)])
    with pytest.raises(EvidenceRefused) as refused:
        store.consent(remembered.fact_id, "accept", message_id=reply.source_id)
    assert refused.value.field == "message_id" and "refus" in refused.value.rule
    assert served(store, remembered.fact_id) == (False, False, False)


@pytest.mark.parametrize("text", ["Yes.", "No problem, remember it.", "Sure", "好的", "不错，记住吧"])
def test_a_yes_still_consents(store, clock, text):
    remembered, _said = surfaced(store, clock)
    clock.at(T0 + timedelta(minutes=3))
    _shown, reply = store.ingest_messages("s", [
        msg(1, "I will remember that: " + CLAIM, origin="agent", role="assistant", author="agent"), msg(2, text)])
    assert store.consent(remembered.fact_id, "accept", message_id=reply.source_id).fact.state == "active"


def test_a_later_message_never_answering_the_shown_line_is_no_consent(store, clock):
    # given Ana's surfaced claim, and a later message of hers, but the agent never showed "I will remember that ..."
    remembered, _said = surfaced(store, clock)
    clock.at(T0 + timedelta(minutes=3))
    [later] = store.ingest_messages("s", [msg(1, "Thanks, that's all for today.")])
    # when that message is relayed as her yes, then it is refused naming message_id: she was never asked
    with pytest.raises(EvidenceRefused) as refused:
        store.consent(remembered.fact_id, "accept", message_id=later.source_id)
    assert refused.value.field == "message_id" and "showed" in refused.value.rule
    assert served(store, remembered.fact_id) == (False, False, False)
    # and once the line is shown, her yes to it consents
    store.ingest_messages("s", [msg(2, "I will remember that: " + CLAIM, origin="agent", role="assistant",
                                    author="agent")])
    [yes] = store.ingest_messages("s", [msg(3, "Yes.")])
    assert store.consent(remembered.fact_id, "accept", message_id=yes.source_id).fact.state == "active"
