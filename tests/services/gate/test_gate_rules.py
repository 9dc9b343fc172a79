"""Issue 24 §8, the write gate's pure rules: a question states nothing, canonical Unicode forms match, the latest
message (and the last occurrence in it) is the match."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import pytest

from credo.services.gate.rules import asked, is_pure_question, is_question, latest_match, locate, quote_hedges

NFD = lambda s: unicodedata.normalize("NFD", s)  # noqa: E731
NFC = lambda s: unicodedata.normalize("NFC", s)  # noqa: E731


def _asks(text: str, quote: str) -> str | None:
    span = locate(text, quote)
    assert span is not None, "the table's quote must occur in its message"
    return asked(text, span, quote)


# -- questions -------------------------------------------------------------------------------------
@pytest.mark.parametrize("sentence, question", [
    ("Does Ivy lead legal?", True),
    ("Ivy leads legal?", True),  # a rising statement asks for confirmation
    ("Ivy leads legal, right?", True),  # a tag question
    ("Who else would lead legal but Ivy?", True),  # rhetorical: still a question, the gate cannot tell
    ("Really?!", True),
    ("Wait... what?", True),
    ("艾薇负责法务吗？", True),
    ("艾薇负责法务吗", True),  # 吗 asks without its mark
    ("艾薇負責法務嗎", True),
    ("Ivy 负责法务？", True),
    ("Ivy leads legal.", False),
    ("Ivy leads legal", False),
    ('The ticket title is "Why is login slow?"', False),  # a question reported inside a statement
    ('She asked "why?" and left.', False),
    ("Did we ship v3.5 to example.com yet", False),  # a question without its mark is not recognised
    ("你知道吗，Ivy 负责法务。", False),  # 吗 inside the sentence, not at its end
    ("", False),
])
def test_a_sentence_is_a_question_by_its_closing_mark_or_a_closing_ma(sentence, question):
    assert is_question(sentence) is question


@pytest.mark.parametrize("text, quote, question", [
    ("Does Ivy lead legal?", "Does Ivy lead legal?", "Does Ivy lead legal?"),  # the whole question
    ("Does Ivy lead legal?", "Ivy lead legal", "Does Ivy lead legal?"),  # a part of it
    ("Does Ivy lead legal? Ivy leads legal.", "Ivy leads legal", None),  # a statement after a question
    ("Ivy leads legal. Does Bob?", "Ivy leads legal", None),
    ("Ivy leads legal. Does Bob?", "legal. Does Bob", "Does Bob?"),  # a quote reaching into the question
    ("Ivy leads legal.\nBob?", "Ivy leads legal", None),
    ('The ticket title is "Why is login slow?"', "The ticket title is", None),
    ('She asked "why?" and left.', "why?", "why?"),  # the quoted words themselves ask
    ("She asked why and left.", "She asked why and left", None),
    ("艾薇负责法务吗？", "艾薇负责法务", "艾薇负责法务吗？"),
    ("我问过了。艾薇负责法务。", "艾薇负责法务", None),
    ("Who leads legal? Ivy.", "Ivy", None),  # states, though it carries no claim (carry_rules refuses that)
])
def test_a_quote_asks_when_it_is_or_reaches_into_a_question(text, quote, question):
    assert _asks(text, quote) == question


def test_a_message_only_asks_when_every_sentence_is_a_question():
    assert is_pure_question("should we disable the cache?")
    assert is_pure_question("Really?! Why?")
    assert not is_pure_question("Yes. Should we also log it?")
    assert not is_pure_question("")


# -- matching ----------------------------------------------------------------------------------------
CAFE = "Maria's café opens at 8 on Mondays."


@pytest.mark.parametrize("text, quote, found", [
    (CAFE, "café opens at 8", True),
    (NFD(CAFE), "café opens at 8", True),  # an NFC quote of an NFD message: the same text
    (CAFE, NFD("café opens at 8"), True),  # an NFD quote of an NFC message
    (NFD(CAFE), NFD("café  opens\tat 8"), True),  # whitespace aside too
    (CAFE, "cafe opens at 8", False),  # without the accent it is other text
    (NFD(CAFE), "cafe", False),  # a base letter is not its accented letter, however it is stored
    ("Ｖｅｒｓｉｏｎ ２ ships", "Version 2 ships", False),  # full-width (NFKC only): other characters
    ("the ﬁle is ready", "the file is ready", False),  # a ligature (NFKC only)
    ("x² is four", "x2 is four", False),  # a superscript (NFKC only)
    ("Ivy leads legal", "ivy leads legal", False),  # case is text
    ("한국어 문장입니다", NFD("한국어 문장"), True),  # Hangul decomposed to jamo (NFD) composes back
    ("", "a", None),
])
def test_a_quote_matches_its_canonical_equivalents_and_nothing_else(text, quote, found):
    span = locate(text, quote)
    assert (span is not None) is bool(found)
    if span:  # the span points into the original text: its NFC is the quote's
        assert " ".join(NFC(text[span[0]:span[1]]).split()) == " ".join(NFC(quote).split())


@pytest.mark.parametrize("text, quote, span", [
    ("Maybe Bob owns billing. Bob owns billing.", "Bob owns billing", [24, 40]),  # the last occurrence
    ("Bob owns billing. Maybe Bob owns billing.", "Bob owns billing", [24, 40]),
    ("a  b\tc", "b c", [3, 6]),
    (NFD("é é"), "é", [3, 5]),  # a decomposed letter: its span covers the base and its mark
])
def test_inside_one_message_the_last_occurrence_is_the_match(text, quote, span):
    assert locate(text, quote) == span


@pytest.mark.parametrize("text, quote, hedged", [
    ("Maybe Bob owns billing. Bob owns billing.", "Bob owns billing", False),  # said plainly last
    ("Bob owns billing. Maybe Bob owns billing.", "Bob owns billing", True),  # hedged last
])
def test_the_last_occurrence_decides_the_hedge(text, quote, hedged):
    assert bool(quote_hedges(text, locate(text, quote), quote)) is hedged


@dataclass
class _Msg:
    index: int
    text: str
    generation: int = 1


@pytest.mark.parametrize("messages, quote, index", [
    ([_Msg(2, "I guess the window is Sunday."), _Msg(4, "The window is Sunday.")], "window is Sunday", 4),
    ([_Msg(2, "I guess the window is Sunday."), _Msg(4, "The window is Sunday.")], "the window is Sunday", 2),
    ([_Msg(2, "I guess the window is Sunday."), _Msg(4, "OK: the window is Sunday.")], "the window is Sunday", 4),
    ([_Msg(4, "OK: the window is Sunday."), _Msg(2, "I guess the window is Sunday.")], "the window is Sunday", 4),
    ([_Msg(2, "the window is Sunday"), _Msg(4, "maybe the window is Sunday")], "the window is Sunday", 4),
    ([_Msg(9, "the window is Sunday", generation=1), _Msg(0, "so the window is Sunday", generation=2)],
     "the window is Sunday", 0),  # a later generation is later, whatever its index
    ([_Msg(2, "Bob owns billing"), _Msg(4, "Alice owns billing")], "Carol owns billing", None),
])
def test_the_latest_message_holding_the_quote_is_the_match(messages, quote, index):
    found = latest_match(messages, quote)
    assert (found[0].index if found else None) == index
