"""Issue 24 §8: a quote must carry the claim remembered on its word (services/gate/carry_rules.py, rules 1-5)."""

from __future__ import annotations

import pytest

from credo.services.gate.carry_rules import carries, date_carried, fold, name_missing, numbers_in, words


def gap(quote, content, subject=None, obj=None, speaker="maria"):
    found = carries(quote, content=content, subject=subject, obj=obj, speaker=speaker)
    return None if found is None else found.field


@pytest.mark.parametrize("quote, content, subject, obj, field", [
    # the case: a one-word quote proves someone spoke, not what they said
    ("Alice", "Alice was fired for fraud", None, None, "content"),
    ("Alice", "Alice was fired for fraud", "Alice", ("entity", "fraud"), "object"),
    ("Alice", "Alice was fired", None, None, "content"),  # one word of two: not more than half
    ("Alice was fired for fraud", "Alice was fired for fraud", "Alice", ("entity", "fraud"), None),
    ("Bob was fired for fraud", "Alice was fired for fraud", "Alice", None, "subject"),  # a subject swapped
    ("Bob was fired for fraud", "Alice was fired for fraud", None, None, "content"),  # ... in the content
    # a rewrite may add a minority of words for context, not the claim
    ("We deploy on Fridays.", "The team deploys on Fridays", None, None, None),
    ("We deploy on Fridays", "Deploys happen on Fridays", None, None, None),
    ("We deploy on Fridays", "The billing team deploys to production on Fridays", None, None, "content"),
    ("We deploy on Fridays", "Deployments happen every Friday", None, None, "content"),  # 'Deployments' unsaid
    ("the export now runs at 03:00 UTC", "The nightly export runs at 03:00 UTC", None, ("entity", "03:00 UTC"),
     None),
    # punctuation and case do not matter to words; inflection folds
    ("ALICE OWNS THE ACME ACCOUNT!!!", "Alice owns the Acme account.", "Acme account", ("entity", "Alice"), None),
    ("the acme-account is Alice's", "Alice owns the Acme account", "Acme account", ("entity", "Alice"), None),
    ("Bob moved to Lisbon", "Bob lives in Lisbon", "Bob", ("entity", "Lisbon"), None),
    # multi-word names: every capitalised word and number, and at least half of the words
    ("the export runs at 02:00 UTC", "The export runs at 02:00 UTC", "nightly export", None, None),
    ("I guess API v1 still uses customer_legacy", "API v1 clients still read customer_legacy", "API v1 clients",
     ("entity", "customer_legacy"), None),
    ("Alice owns the Globex account", "Alice owns the account", "Acme account", None, "subject"),
    ("Ivy leads legal", "Ivy leads legal", "Ivy Chen", None, "subject"),  # name the subject as the quote does
    ("Ivy Chen leads legal", "Ivy Chen leads legal", "Ivy Chen", None, None),
    ("Ivy leads legal", "Ivy Chen leads legal", "Ivy", None, "content"),  # 'Chen' is a name the quote lacks
    # the speaker is named by the message, not the quote
    ("I take my coffee black", "Maria takes her coffee black", "Maria", None, None),
    ("I take my coffee black", "Maria takes her coffee black", None, None, None),
    ("I take my coffee black", "The user takes coffee black", None, None, None),
    ("I take my coffee black", "Bob takes his coffee black", "Bob", None, "subject"),
    # literal objects: numbers as digits, dates as precise as they are
    ("The cache TTL is 300 seconds", "The cache TTL is 300 seconds", "cache", ("number", "300"), None),
    ("The cache TTL is 300 seconds", "The cache TTL is 300 seconds", "cache", ("number", "300.0"), None),
    ("The cache TTL is 300 seconds", "The cache TTL is 600 seconds", None, None, "content"),  # a value changed
    ("The cache TTL is five minutes", "The cache TTL is 300 seconds", "cache", ("number", "300"), "object"),
    ("The budget is 1,200 euros", "The budget is 1,200 euros", "budget", ("number", "1200"), None),
    ("We run v1 now", "We run version 1", None, ("number", "1"), "object"),  # 'v1' holds no number 1
    ("It shipped on 2019-04-01", "It shipped on 2019-04-01", None, ("date", "2019-04-01"), None),
    ("It shipped on April 1, 2019", "It shipped on April 1, 2019", None, ("date", "2019-04-01"), None),
    ("It shipped in April 2019", "It shipped in April 2019", None, ("date", "2019-04-01"), "object"),  # no day
    ("It shipped in April 2019", "It shipped in April 2019", None, ("date", "2019-04"), None),
    ("它在2019年4月1日发布", "它在2019年4月1日发布", None, ("date", "2019-04-01"), None),
    # a predicate is vocabulary: only the claim's words are checked
    ("Alice resigned", "Alice resigned", "Alice", None, None),
    ("Carol leads the infra team", "Carol leads the infra team", "infra team", ("entity", "Carol"), None),
    # CJK without spaces: character by character
    ("爱丽丝", "爱丽丝因欺诈被解雇", None, None, "content"),
    ("应该是 Bob 负责账单", "Bob 负责账单", None, None, None),
    ("缓存已经关闭了", "缓存已关闭", None, None, None),
    ("缓存已经关闭了", "数据库已关闭", None, None, "content"),
    ("爱丽丝负责法务", "爱丽丝负责法务", "爱丽丝", None, None),
    ("艾薇负责法务", "爱丽丝负责法务", "爱丽丝", None, "subject"),
    # compatibility forms compare as words (the verbatim match is stricter: gate_rules)
    ("ＡＰＩ ｖ１ reads customer_legacy", "API v1 reads customer_legacy", "API v1", None, None),
])
def test_a_quote_carries_the_claim_only_when_its_words_are_there(quote, content, subject, obj, field):
    assert gap(quote, content, subject, obj) == field


def test_a_refusal_names_the_missing_words_and_what_to_do():
    found = carries("Alice", content="Alice was fired for fraud", speaker="bob")
    assert found.field == "content" and "'fired', 'fraud'" in found.rule and "quote the sentence" in found.rule
    found = carries("Ivy leads legal", content="Ivy leads legal", subject="Ivy Chen", speaker="bob")
    assert found.field == "subject" and "'Chen'" in found.rule
    found = carries("The TTL is 300 s", content="The TTL is 300 s", obj=("number", "600"), speaker="bob")
    assert found.field == "object" and "600" in found.rule


@pytest.mark.parametrize("word, folded", [
    ("deploys", "deploy"), ("deployed", "deploy"), ("deploying", "deploy"), ("fired", "fir"), ("fire", "fir"),
    ("companies", "company"), ("classes", "class"), ("status", "status"), ("running", "run"), ("filled", "fill"),
    ("mornings", "morn"), ("ran", "ran"), ("v1", "v1"), ("café", "café"),
])
def test_the_suffix_fold_joins_inflections_of_one_word(word, folded):
    assert fold(word) == folded


def test_words_split_cjk_by_character_and_keep_names_and_numbers():
    got = [(w.text, w.name, w.number, w.stop) for w in words("Maria's deploys: v1 在读字段")]
    assert got == [("maria", True, False, False), ("deploy", False, False, False), ("v1", False, True, False),
                   ("在", False, False, True), ("读", False, False, False), ("字", False, False, False),
                   ("段", False, False, False)]


@pytest.mark.parametrize("name, quote, missing", [
    ("Acme account", "the acme account", []),
    ("nightly export", "the export", []),
    ("nightly export job", "the export", ["nightly", "job"]),
    ("Ivy Chen", "Ivy", ["Chen"]),
    ("API v1 clients", "API v1 reads", []),
    ("API v2 clients", "API v1 clients", ["v2"]),
])
def test_a_name_is_carried_whole_or_by_its_names_numbers_and_half_its_words(name, quote, missing):
    assert [w.raw for w in name_missing(name, words(quote))] == missing


@pytest.mark.parametrize("text, number, found", [
    ("1,200 euros", "1200", True), ("1.200,5 euros", "1200.5", True), ("3.5 days", "3.5", True),
    ("−5 °C", "-5", True), ("-5 °C", "5", False), ("3-5 days", "5", True), ("v1", "1", False),
    ("02:00 UTC", "2", True), ("１２ apples", "12", True),
])
def test_numbers_are_read_as_written(text, number, found):
    from decimal import Decimal

    assert (Decimal(number) in numbers_in(text)) is found


@pytest.mark.parametrize("value, quote, found", [
    ("2019-04-01", "on 2019-04-01", True), ("2019-04-01", "1 Apr 2019", True), ("2019-04-01", "April 2019", False),
    ("2019", "back in 2019", True), ("2019-04", "in Sept 2019", False), ("2019-09", "in Sept 2019", True),
    ("2019-04-01", "2019年4月1日", True), ("2020-04-01", "2019-04-01", False),
])
def test_a_date_is_carried_as_precise_as_it_is(value, quote, found):
    assert date_carried(value, quote) is found
