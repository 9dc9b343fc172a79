"""Forgetting reaches the free text around the content, not only the content fields: a summary's topic (by default
its text's first line), reasons people gave for their acts (ledger reasons, a version's end or lapse reason, the
reasons and causes on state changes, the forget's own reason), the actors they claimed and task labels. The raw
scan of every node and relationship property of the tenant is the judge; the ledger's hash chain still verifies."""

from __future__ import annotations

import pytest

from credo.cypher import Query
from credo.services.summarizers import ListSummarizer
from credo.store import Store
from tests.services.test_forget import T0
from tests.services.test_forget_residue import another_handle, keys, kstore, raw_scan  # noqa: F401 (fixtures)

KAPPA = ("forgetmenot", "zorbitisvex")
SAID = "Kappa Forgetmenot was diagnosed with Zorbitisvex."
QUOTE = "Kappa Forgetmenot was diagnosed with Zorbitisvex"


def _kappa(store: Store):
    [message] = store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "nurse",
                                              "text": SAID, "at": T0}])
    fact = store.remember("s1", QUOTE, QUOTE, subject="Kappa Forgetmenot", predicate="diagnosed_with",
                          object="Zorbitisvex")
    return message, fact


def _forget_and_purge(store: Store, ids: list[str], reason: str = "erasure request") -> None:
    for ident in ids:
        store.forget(ident, reason=reason, actor="dpo")
    for ident in ids:
        store.purge(ident)


# a summary's topic: the text's first line when none is given, or one the caller named
TOPICS = [
    ("the text's first line", "Kappa Forgetmenot has Zorbitisvex per clinic", None),
    ("an explicit topic naming the subject", "Clinic overview text", "Kappa Forgetmenot clinic topic"),
]


@pytest.mark.parametrize("case, text, topic", TOPICS, ids=[t[0] for t in TOPICS])
def test_a_summary_topic_goes_with_the_forgotten_fact_its_message_and_its_subject(kstore, case, text, topic):
    # given the diagnosis remembered from a message, and a summary derived from it
    message, fact = _kappa(kstore)
    summary = kstore.add_summary(text, derived_from=[fact.fact_id], topic=topic)
    assert "Forgetmenot" in kstore.summary(summary.summary_id).topic
    # when the fact, its message and its subject are forgotten, then purged
    _forget_and_purge(kstore, [fact.fact_id, message.source_id, fact.subject_id])
    # then no property of the tenant holds the words, the summary's topic included
    assert raw_scan(kstore, KAPPA) == []
    # and neither the summary read nor the stale list shows them, while every report says complete
    assert not any(w in kstore.summary(summary.summary_id).model_dump_json().lower() for w in KAPPA)
    assert not any(w in item.model_dump_json().lower() for item in kstore.stale() for w in KAPPA)
    for ident in (fact.fact_id, message.source_id, fact.subject_id):
        assert kstore.verify_forgotten(ident).complete


def test_a_summary_rebuilt_without_the_forgotten_input_does_not_carry_its_old_topic(kstore):
    # given a summary of two facts whose topic is its text's first line, naming the one to forget
    _message, fact = _kappa(kstore)
    other = kstore.add_fact("Clinic North", "located_in", "Harbour Road", valid_from="2024-01-01")
    summary = kstore.add_summary("Kappa Forgetmenot has Zorbitisvex per clinic\n- and the clinic's address",
                                 derived_from=[fact.fact_id, other.fact_id])
    # when the fact is forgotten (its object entity goes with it: nothing else names it)
    report = kstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report
    # then the rebuilt summary keeps the remembered input, under a topic that says what happened, not the old one
    rebuilt = kstore.summary(summary.summary_id)
    assert "Harbour Road" in rebuilt.text and "zorbitisvex" not in rebuilt.model_dump_json().lower()
    assert "removed" in rebuilt.topic
    assert report.complete and "zorbitisvex" not in " ".join(raw_scan(kstore, ("zorbitisvex",)))


def test_a_summary_topic_holding_forgotten_words_is_residue_until_it_goes(kstore):
    # given the diagnosis forgotten (complete) while a summary of it exists
    _message, fact = _kappa(kstore)
    summary = kstore.add_summary("Clinic overview text", derived_from=[fact.fact_id], topic="clinic notes")
    assert kstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report.complete
    # when a copy of the words is found in a version's topic afterwards (a restored backup, an old store)
    kstore._db.query(Query("raw", "MATCH (m:Summary {summary_id: $id}) SET m.topic = $text", frozenset()),
                     write=True, id=summary.summary_id, text=QUOTE)
    # then verify_forgotten, from this handle and from another, names the summary as residue
    for handle in (kstore, another_handle(kstore)):
        report = handle.verify_forgotten(fact.fact_id)
        assert not report.complete and "summary" in {r.place for r in report.residue}, report.residue
