"""Issue 8 §5: a hedge in the sentence that carries the quote makes a hypothesis, even when the quote omits it."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo.services.gate.turns import HEDGES_EN, HEDGES_ZH, hedge_scope, hedges, locate, quote_hedges

T0 = datetime(2025, 5, 1, 9, 0, tzinfo=timezone.utc)


def _hedges_of(text: str, quote: str) -> list[str]:
    span = locate(text, quote)
    assert span is not None, "the table's quote must occur in its message"
    return quote_hedges(text, span, quote)


@pytest.mark.parametrize("text, quote", [
    ("I guess the deploy is on Friday.", "the deploy is on Friday"),
    ("The deploy is on Friday, I think.", "The deploy is on Friday"),
    ("I'm not 100% sure, but the deploy is on Friday.", "the deploy is on Friday"),
    ("I reckon Bob owns billing.", "Bob owns billing"),
    ("I believe the cache TTL is 300 seconds.", "the cache TTL is 300 seconds"),
    ("It's probably the cache.", "the cache"),
    ("The job might run nightly.", "run nightly"),
    ("It could be the v1 client reading column X.", "the v1 client reading column X"),
    ("If I remember correctly, Carol owns the account.", "Carol owns the account"),
    ("Not sure, the release is in May.", "the release is in May"),
    ("Release date: TBD, maybe June.", "Release date"),
    ("Owner TBD.", "Owner"),
    ("Hmm. I   think\tthe deploy is on Friday.", "the deploy is on Friday"),  # whitespace inside the hedge
    ("We moved. I think the office is now in Berlin and the deploy is on Friday.", "the deploy is on Friday"),
    ("The deploy is on Friday. Maybe Monday.", "Friday. Maybe"),  # a quote over two sentences: both count
    ("大概是周五部署。", "周五部署"),
    ("应该是 Bob 负责账单。", "Bob 负责账单"),
    ("好像缓存已经关了。", "缓存已经关了"),
    ("我不太确定，发布在五月。", "发布在五月"),
    ("估计下周上线。", "下周上线"),
    ("可能是 v1 在读这个字段。", "v1 在读这个字段"),
])
def test_a_hedge_in_the_sentence_carrying_the_quote_makes_a_hypothesis(text, quote):
    assert _hedges_of(text, quote)


@pytest.mark.parametrize("text, quote", [
    ("The mighty ducks won.", "The mighty ducks won"),  # "might" inside a word
    ("I think we should talk later. The deploy is on Friday.", "The deploy is on Friday"),  # another sentence
    ("Maybe lunch?\nBob owns billing", "Bob owns billing"),  # another line
    ("The deploy is on Friday! I guess that's all.", "The deploy is on Friday"),
    ("Version 1.2 is deployed on Friday. Not sure about 1.3.", "Version 1.2 is deployed on Friday"),  # 1.2 is no end
    ("这不可能是 v1。", "这不可能是 v1"),  # 不可能 (impossible) asserts, it does not hedge
    ("我猜是缓存。周五部署。", "周五部署"),
    ("We deploy on Fridays.", "We deploy on Fridays"),
    ("Standard TBDs are filed weekly.", "Standard TBDs are filed weekly"),
])
def test_a_plain_sentence_stays_confirmed_whatever_other_sentences_say(text, quote):
    assert _hedges_of(text, quote) == []


@pytest.mark.parametrize("text, span, scope", [
    ("One. Two three. Four.", [5, 8], "Two three."),
    ("One. Two three. Four.", [2, 7], "One. Two three."),
    ("a\nb c\nd", [2, 5], "b c"),
    ("no end", [0, 2], "no end"),
    ("", [0, 0], ""),
    ("第一句。第二句！", [4, 6], "第二句！"),
])
def test_the_hedge_scope_is_the_sentences_overlapping_the_span(text, span, scope):
    assert hedge_scope(text, span) == scope


def test_hedge_tables_cover_the_issue_phrases():
    for phrase in ("not 100% sure", "i reckon", "i think", "probably", "i believe", "might", "could be",
                   "if i remember correctly", "not sure", "tbd"):
        assert phrase in HEDGES_EN and hedges(f"so, {phrase}, ok") == [phrase]
    for phrase in ("大概", "应该是", "好像", "不太确定", "估计", "可能"):
        assert phrase in HEDGES_ZH and phrase in hedges(f"嗯{phrase}吧")


def test_quote_without_its_hedge_is_remembered_as_a_hypothesis(store, clock):
    # given a human message that hedges the clause the agent quotes
    clock.at(T0)
    store.ingest_messages("hs", [
        {"index": 0, "role": "user", "origin": "human_input", "author": "alice", "at": T0,
         "text": "Thanks for the notes. I guess the deploy is on Friday. The cache TTL is 300 seconds."},
    ])
    turn = store.turn("hs")
    # when the agent quotes the clause without the hedge, and a plain sentence of the same message
    hedged = turn.remember("the deploy is on Friday", "The deploy is on Friday")
    plain = turn.remember("The cache TTL is 300 seconds", "The cache TTL is 300 seconds")
    # then the hedged clause is a hypothesis everywhere it is read, the plain one stays confirmed
    assert (hedged.epistemic, hedged.evidence) == ("hypothesis", "stated")
    assert store.why(hedged.fact_id).epistemic == "hypothesis"
    assert plain.epistemic == "confirmed"


def test_an_extracted_quote_without_its_hedge_is_a_hypothesis(store, clock):
    from credo.schema.provenance import Candidate
    from credo.services.adapters.extractors import ScriptedExtractor

    # given a hedged message, and an extractor that quotes the clause without the hedge
    clock.at(T0)
    store.ingest_messages("he", [{"index": 0, "role": "user", "origin": "human_input", "author": "alice", "at": T0,
                                  "text": "I reckon the ledger runs on Postgres 15."}])
    clause = Candidate(statement="The ledger runs on Postgres 15", subject="ledger", predicate="database",
                       object="Postgres 15", quote="the ledger runs on Postgres 15", source_index=0)
    # when the extraction commits, then the candidate is a hypothesis
    [fact] = store.extract("he", ScriptedExtractor([[clause]])).facts
    assert (fact.epistemic, fact.evidence) == ("hypothesis", "stated")
