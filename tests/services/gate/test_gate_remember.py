"""Issue 24 §8, the gate rules through `turn.remember` on a real store: a question states nothing, a quote must
carry the claim, canonical Unicode forms match, the latest message holding the quote is the match."""

from __future__ import annotations

import unicodedata
from datetime import date, datetime, timezone

import pytest

from credo.schema.errors import EvidenceRefused
from tests.messages import messages

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)


msg = messages(T0, "alice")


class _Q:  # raw count queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_WRITTEN = _Q("OPTIONAL MATCH (f:Fact {tenant: $tenant}) WITH count(f) AS facts "
              "OPTIONAL MATCH (e:AuditEvent {tenant: $tenant}) RETURN facts, count(e) AS events")


def written(store):
    """(Fact nodes, AuditEvent nodes) of the test's tenant: what a write would add."""
    row = store._ctx.db.query(_WRITTEN, tenant=store.tenant)[0]
    return row["facts"], row["events"]


def said(store, *texts, author="alice"):
    """One turn of a human's messages; returns its handle."""
    store.ingest_messages("s", [msg(i, t, author=author) for i, t in enumerate(texts)])
    return store.turn("s")


# -- a question asks ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text, quote, content", [
    ("Does Ivy lead legal?", "Does Ivy lead legal?", "Ivy leads legal"),  # the whole question
    ("Does Ivy lead legal?", "Ivy lead legal", "Ivy leads legal"),  # its words without the mark
    ("Ivy leads legal, right?", "Ivy leads legal", "Ivy leads legal"),
    ("Who else would lead legal but Ivy?", "lead legal but Ivy", "Ivy leads legal"),  # rhetorical
    ("艾薇负责法务吗？", "艾薇负责法务", "艾薇负责法务"),
    ("艾薇负责法务吗", "艾薇负责法务", "艾薇负责法务"),
    ("Ivy leads legal. Does Bob?", "legal. Does Bob", "Ivy leads legal"),  # a quote reaching into a question
])
def test_a_question_never_becomes_a_fact(store, clock, text, quote, content):
    # given a human who asks
    clock.at(T0)
    turn = said(store, text)
    before = written(store)
    # when the agent quotes the question as the evidence of a claim
    with pytest.raises(EvidenceRefused) as refused:
        turn.remember(quote, content)
    # then the gate refuses it with a rule the agent can act on, and writes nothing
    assert refused.value.field == "quote"
    assert refused.value.rule.startswith("a question asks, it does not state: quote a statement")
    assert written(store) == before


@pytest.mark.parametrize("text, quote, content", [
    ("Does Ivy lead legal? Ivy leads legal.", "Ivy leads legal", "Ivy leads legal"),  # the statement after it
    ('The ticket title is "Why is login slow?"', 'The ticket title is "Why is login slow?"',
     'The ticket title is "Why is login slow?"'),  # a question mark inside a quoted sentence
    ("艾薇负责法务吗？我确认了：艾薇负责法务。", "艾薇负责法务。", "艾薇负责法务"),
])
def test_a_statement_beside_a_question_is_remembered_as_confirmed(store, clock, text, quote, content):
    clock.at(T0)
    fact = said(store, text).remember(quote, content)
    assert (fact.evidence, fact.epistemic) == ("stated", "confirmed")


# -- a quote must carry the claim ----------------------------------------------------------------------
@pytest.mark.parametrize("text, quote, content, fields, field", [
    ("Alice said hello.", "Alice", "Alice was fired for fraud", {}, "content"),
    ("Alice said hello.", "Alice", "Alice was fired for fraud",
     {"subject": "Alice", "predicate": "fired_for", "object": "fraud"}, "object"),
    ("Bob was fired for fraud.", "Bob was fired for fraud", "Alice was fired for fraud",
     {"subject": "Alice", "predicate": "fired_for", "object": "fraud"}, "subject"),
    ("The cache TTL is 300 seconds.", "The cache TTL is 300 seconds", "The cache TTL is 600 seconds", {}, "content"),
    ("The budget is 1,200 euros.", "The budget is 1,200 euros", "The budget is 1,200 euros",
     {"subject": "budget", "predicate": "amount", "object": 1500}, "object"),
])
def test_a_quote_that_does_not_carry_the_claim_is_refused_naming_what_is_missing(store, clock, text, quote, content,
                                                                                  fields, field):
    clock.at(T0)
    turn = said(store, text, author="maria")
    before = written(store)
    with pytest.raises(EvidenceRefused) as refused:
        turn.remember(quote, content, **fields)
    assert refused.value.field == field and "quote" in refused.value.rule
    assert written(store) == before


@pytest.mark.parametrize("text, quote, content, fields", [
    ("Alice was fired for fraud.", "Alice was fired for fraud", "Alice was fired for fraud",
     {"subject": "Alice", "predicate": "fired_for", "object": "fraud"}),
    ("The budget is 1,200 euros.", "The budget is 1,200 euros", "The budget is 1,200 euros",
     {"subject": "budget", "predicate": "amount", "object": 1200}),
    ("The release shipped on April 1, 2019.", "release shipped on April 1, 2019", "The release shipped on 2019-04-01",
     {"subject": "release", "predicate": "shipped_on", "object": date(2019, 4, 1)}),
    ("I take my coffee black.", "I take my coffee black", "Maria takes her coffee black",
     {"subject": "Maria", "predicate": "coffee"}),
    ("缓存已经关闭了。", "缓存已经关闭了", "缓存已关闭", {}),
])
def test_a_quote_that_carries_the_claim_is_remembered(store, clock, text, quote, content, fields):
    clock.at(T0)
    fact = said(store, text, author="maria").remember(quote, content, **fields)
    assert (fact.evidence, fact.epistemic, fact.statement) == ("stated", "confirmed", content)


# -- canonical Unicode ---------------------------------------------------------------------------------
def test_a_quote_in_nfd_of_an_nfc_message_matches_and_points_at_the_message_as_written(store, clock):
    # given a message in NFC, and a quote that looks the same in NFD (e + combining acute)
    clock.at(T0)
    text = "José runs the café on Mondays."
    turn = said(store, unicodedata.normalize("NFC", text))
    quote = unicodedata.normalize("NFD", "José runs the café")
    assert quote != unicodedata.normalize("NFC", quote)
    # when it is remembered, then it matches, and the span is the message's own characters
    fact = turn.remember(quote, "José runs the café", subject="José", predicate="runs", object="the café")
    assert fact.evidence == "stated"
    [source] = store.why(fact.fact_id).sources
    assert source.span == [0, len("José runs the café")]


def test_a_compatibility_form_is_other_text(store, clock):
    # given a message with a full-width version number; when the quote writes it in ASCII, then it does not match
    clock.at(T0)
    turn = said(store, "Version ２ ships on Friday.")
    with pytest.raises(EvidenceRefused) as refused:
        turn.remember("Version 2 ships on Friday", "Version 2 ships on Friday")
    assert refused.value.field == "quote" and "verbatim" in refused.value.rule


# -- the latest message is the match -----------------------------------------------------------------------
@pytest.mark.parametrize("texts, epistemic", [
    (("I guess the window is Sunday.", "OK, checked: the window is Sunday."), "confirmed"),  # the later one is plain
    (("Yes, the window is Sunday.", "Hmm, maybe the window is Sunday."), "hypothesis"),  # the later one hedges
])
def test_when_several_messages_hold_the_quote_the_latest_decides_and_is_cited(store, clock, texts, epistemic):
    # given one turn where the person says it twice, hedging once
    clock.at(T0)
    turn = said(store, *texts)
    # when the quote is remembered
    fact = turn.remember("the window is Sunday", "The maintenance window is Sunday", subject="maintenance window",
                         predicate="day", object="Sunday")
    # then what they said last is what they mean now: its hedges decide, provenance points at it
    assert fact.epistemic == epistemic
    [source] = store.why(fact.fact_id).sources
    text = texts[-1]
    assert source.index == 1 and text[source.span[0]:source.span[1]] == "the window is Sunday"


def test_when_the_latest_message_holding_the_quote_asks_it_the_quote_is_refused(store, clock):
    clock.at(T0)
    turn = said(store, "Ivy leads legal.", "Wait, Ivy leads legal?")
    with pytest.raises(EvidenceRefused, match="message #1"):
        turn.remember("Ivy leads legal", "Ivy leads legal")
