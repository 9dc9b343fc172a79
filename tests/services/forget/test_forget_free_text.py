"""Forgetting reaches the free text around the content, not only the content fields: a summary's topic (by default
its text's first line), reasons people gave for their acts (ledger reasons, a version's end or lapse reason, the
reasons and causes on state changes, the forget's own reason), the actors they claimed and task labels. The raw
scan of every node and relationship property of the tenant is the judge; the ledger's hash chain still verifies."""

from __future__ import annotations

import pytest

from credo.cypher import Query
from credo.services.adapters.summarizers import ListSummarizer
from credo.store import Store
from tests.services.forget.test_forget_residue import (  # noqa: F401 (fixtures)
    another_handle, diagnosis, keys, kstore, raw_scan)

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

KAPPA = ("forgetmenot", "zorbitisvex")
SAID = "Kappa Forgetmenot was diagnosed with Zorbitisvex."
QUOTE = "Kappa Forgetmenot was diagnosed with Zorbitisvex"


def _kappa(store: Store):
    return diagnosis(store, SAID, QUOTE, "Kappa Forgetmenot", "Zorbitisvex")


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


LAMBDA = ("erasename",)
NAME = "Lambda Erasename"


def _ward_and_lambda(store: Store):
    """Facts about Lambda (forgotten with it), and one that does not name it."""
    treats = store.add_fact("Ward Nine", "treats", NAME, valid_from="2024-01-01")
    store.add_fact(NAME, "lives_in", "Quillbury", valid_from="2024-01-01")
    other = store.add_fact("Ward Nine", "located_in", "Building C", valid_from="2024-01-01")
    return treats, other


def test_a_retract_reason_naming_a_forgotten_subject_goes_with_it_and_the_ledger_still_verifies(kstore):
    # given "Ward Nine treats Lambda Erasename", retracted with a reason naming Lambda
    treats, _other = _ward_and_lambda(kstore)
    kstore.retract_fact(treats.fact_id, reason=f"{NAME} transferred")
    assert "Fact.end_reason" in raw_scan(kstore, LAMBDA) and "AuditEvent.reason" in raw_scan(kstore, LAMBDA)
    # when Lambda is forgotten
    report = kstore.forget(treats.object.entity_id, reason="erasure request", actor="dpo").report
    # then the report is complete only because nothing names Lambda any more: not the version's end reason, not the
    # ledger's reason
    assert report.complete, report.residue
    assert raw_scan(kstore, LAMBDA) == []
    assert "free text" in report.checked
    # and the ledger still verifies, the retraction's event saying its reason was redacted
    ledger = kstore.verify_ledger()
    assert ledger.ok and ledger.redacted >= 1, ledger
    [retraction] = kstore.audit(operation="retract_fact").items
    assert retraction.reason is None and retraction.redacted == ["reason"]


def _retract(s, other):
    s.retract_fact(other.fact_id, reason=f"{NAME} said it was wrong")


def _deprecate(s, other):
    s.deprecate(other.fact_id, reason=f"{NAME} said the building closed", actor=f"{NAME}'s nurse")


def _quarantine(s, other):
    s.quarantine(fact_id=other.fact_id, reason=f"{NAME} doubts it", actor="ward clerk")
    s.release(fact_id=other.fact_id, reason=f"{NAME} confirmed it", actor="ward clerk")


def _admit(s, other):
    s.quarantine(fact_id=other.fact_id, reason="check", actor="ward clerk")
    s.release(fact_id=other.fact_id, reason="checked", actor="ward clerk")
    s.admit(other.fact_id, by=f"the policy {NAME} agreed to")


def _conflict(s, other):
    s.add_fact("Ward Nine", "located_in", "Building D", valid_from="2024-03-01")
    [conflict] = s.conflicts()
    s.resolve_conflict(conflict.conflict_id, decision="reject", reason=f"{NAME} said it never moved")


def _lapse(s, other):
    premise = s.add_fact("Ward Nine", "open", "yes", valid_from="2024-01-01")
    rule = s.add_fact("Ward Nine", "needs", "night staff", valid_from="2024-01-01", depends_on=[premise.fact_id])
    s.end_fact(premise.fact_id, at="2024-06-01")
    s.reverify(rule.fact_id, outcome="lapsed", note=f"{NAME} left the ward")


def _feedback(s, other):
    package = s.context("Ward Nine", task="ward review")
    s.feedback(package.receipt_id, other.fact_id, outcome="useful", reason=f"{NAME} liked it")


def _task_label(s, other):
    s.context("Ward Nine", task=f"review for {NAME}")


# every act whose free text a person writes, each naming Lambda about a fact that does not name Lambda
ACTS = [("retract", _retract), ("deprecate, with a claimed actor", _deprecate), ("quarantine and release", _quarantine),
        ("admit by", _admit), ("reject in a conflict", _conflict), ("lapse note", _lapse), ("feedback", _feedback),
        ("task label", _task_label)]


@pytest.mark.parametrize("act", [a[1] for a in ACTS], ids=[a[0] for a in ACTS])
def test_free_text_naming_a_forgotten_subject_goes_wherever_it_is_and_the_ledger_still_verifies(kstore, act):
    # given an act on a fact unrelated to Lambda, whose free text names Lambda
    treats, other = _ward_and_lambda(kstore)
    act(kstore, other)
    assert raw_scan(kstore, LAMBDA)
    # when Lambda is forgotten and purged
    report = kstore.forget(treats.object.entity_id, reason="erasure request", actor="dpo").report
    # then no property of the tenant names Lambda, the report is complete, and the ledger's chain holds
    assert raw_scan(kstore, LAMBDA) == []
    assert report.complete, report.residue
    assert kstore.purge(treats.object.entity_id).complete
    assert kstore.verify_ledger().ok
    # and what the act said about the other fact is still there, without the name
    assert kstore.history(other.fact_id)


def test_a_forget_reason_or_claimed_actor_naming_what_it_forgets_is_recorded_without_it(kstore):
    # given Lambda, and a message quoting Lambda's diagnosis
    treats, _other = _ward_and_lambda(kstore)
    # when Lambda is forgotten for a reason naming Lambda, on behalf of someone named after Lambda
    result = kstore.forget(treats.object.entity_id, reason=f"{NAME} asked", actor=f"{NAME}'s lawyer")
    # then no tombstone, job, probe or ledger event keeps the name, and the report says why it was forgotten without it
    assert raw_scan(kstore, LAMBDA) == []
    assert result.report.complete and "erasename" not in result.report.model_dump_json().lower()
    assert result.report.tombstone.reason.startswith("[removed by forget")
    assert kstore.verify_ledger().ok


PLANTS = {
    "free text": Query("raw", "MATCH (f:Fact {fact_id: $other}) SET f.end_reason = $text", frozenset()),
    "audit ledger": Query("raw", "MATCH (a:AuditEvent {tenant: $tenant}) WITH a ORDER BY a.seq LIMIT 1 "
                                 "SET a.reason = $text REMOVE a.reason_commit", frozenset()),
}


@pytest.mark.parametrize("place", sorted(PLANTS))
def test_free_text_naming_the_forgotten_subject_left_anywhere_makes_the_report_incomplete(kstore, place):
    # given Lambda forgotten (complete)
    treats, other = _ward_and_lambda(kstore)
    assert kstore.forget(treats.object.entity_id, reason="erasure request", actor="dpo").report.complete
    # when the name is found in free text afterwards (a restored backup; a ledger event written before its free text
    # could be redacted)
    kstore._db.query(PLANTS[place], write=True, tenant=kstore.tenant, other=other.fact_id, text=f"{NAME} moved")
    # then verify_forgotten, from this handle and from another, names the place
    for handle in (kstore, another_handle(kstore)):
        report = handle.verify_forgotten(treats.object.entity_id)
        assert not report.complete and place in {r.place for r in report.residue}, report.residue
        assert "erasename" not in report.model_dump_json().lower()


_LEGACY_EVENT = Query("raw", "CREATE (:AuditEvent {tenant: $tenant, event_id: $tenant + '_legacy', "
                             "action: 'retract_fact', at: datetime('2020-01-01T00:00:00Z'), reason: $text, "
                             "detail: '{}'})", frozenset())


def test_an_event_written_before_the_chain_loses_a_reason_naming_the_forgotten_subject(kstore):
    # given an event written before the ledger was chained (no hash covers it) whose reason names Lambda
    treats, _other = _ward_and_lambda(kstore)
    kstore._db.query(_LEGACY_EVENT, write=True, tenant=kstore.tenant, text=f"{NAME} transferred")
    # when Lambda is forgotten
    report = kstore.forget(treats.object.entity_id, reason="erasure request", actor="dpo").report
    # then its reason is gone too, and the ledger still counts it as unchained
    assert raw_scan(kstore, LAMBDA) == [] and report.complete, report.residue
    assert kstore.verify_ledger().unchained == 1
