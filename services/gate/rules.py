"""The write gate's pure rules over a quote and the messages it may come from (DESIGN §3; tables in
tests/services/gate/test_gate_rules.py and test_hedges.py).

- Match: the quote occurs in the text after two normalisations only: canonical Unicode equivalence (NFC; a quote in
  NFD of an NFC message is the same text, visually identical) and whitespace runs collapsed. Case, synonyms and
  compatibility forms (NFKC: full-width "ＡＰＩ" for "API", the ligature "ﬁ", "x²" for "x2") are different text.
- Latest: when the quote occurs in several eligible messages, the latest one (by generation, then index) is the
  match, and inside one message its last occurrence: what the person said last is what they mean now (its hedges
  decide, provenance points at it).
- Question: a quote that is a question, or that reaches into a sentence that is one, asks; it states nothing. A
  sentence is a question when its closing punctuation holds "?" or "？", or it ends with "吗"/"嗎". A rhetorical
  question is a question too (the gate cannot tell rhetoric from asking); a question reported inside a statement
  ('The ticket says "why is login slow?" twice.') is not; a question without its mark is not recognised.
- Hedges: a hedge in the quote, or in the sentence(s) of the message that hold it, makes the claim a hypothesis.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import TypeVar

# Hedges keep a claim a hypothesis whatever the rewrite says. English phrases match on word boundaries,
# case-insensitively and whitespace-normalised; Chinese ones as substrings ("可能" not inside "不可能", which
# asserts). The scope searched is the quote plus the sentence(s) of its message that contain it (`hedge_scope`).
HEDGES_EN: tuple[str, ...] = (
    "i guess", "i think", "i suspect", "i believe", "i assume", "i reckon", "maybe", "perhaps", "probably",
    "possibly", "might", "may be", "could be", "not sure", "not 100% sure", "unsure", "not certain", "not confirmed",
    "unconfirmed", "not yet confirmed", "to be confirmed", "tbc", "tbd", "iirc", "if i recall",
    "if i remember correctly", "apparently", "seems", "presumably",
)
HEDGES_ZH: tuple[str, ...] = (
    "可能", "也许", "或许", "大概", "我猜", "我觉得", "我想", "好像", "似乎", "估计", "应该是", "不确定", "不太确定",
    "不一定", "说不定", "还没确认", "未确认", "待确认", "没确认",
)
_NOT_AFTER_ZH = {"可能": "不"}
_HEDGE_EN = re.compile(r"\b(" + "|".join(re.escape(h) for h in sorted(HEDGES_EN, key=len, reverse=True)) + r")\b",
                       re.IGNORECASE)
_HEDGE_ZH = re.compile("|".join(
    (f"(?<!{re.escape(_NOT_AFTER_ZH[h])})" if h in _NOT_AFTER_ZH else "") + re.escape(h)
    for h in sorted(HEDGES_ZH, key=len, reverse=True)))
_WS = re.compile(r"\s+")
# a sentence ends at . ! ? followed by whitespace or the end ("v1.2" is no end), at 。！？, or at a line break
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)|[。！？]+|\n")
_CLOSING = re.compile(r"[.!?。！？…]+$")
_QUESTION_MARKS = ("?", "？")
_QUESTION_PARTICLES = ("吗", "嗎")


def hedges(quote: str) -> list[str]:
    """The hedges a text contains, each once (empty when it asserts plainly)."""
    text = _WS.sub(" ", unicodedata.normalize("NFC", quote))
    found = [m.group(1).lower() for m in _HEDGE_EN.finditer(text)]
    found += [m.group(0) for m in _HEDGE_ZH.finditer(text)]
    return list(dict.fromkeys(found))


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """[start, end) of each sentence of `text` (the one sentence rule, for hedges and for questions)."""
    bounds, at = [], 0
    for m in _SENTENCE_END.finditer(text):
        bounds.append((at, m.end()))
        at = m.end()
    if at < len(text):
        bounds.append((at, len(text)))
    return bounds


def _overlapping(text: str, span: Sequence[int]) -> list[tuple[int, int]]:
    start, end = span[0], max(span[1], span[0] + 1)
    return [(s, e) for s, e in sentence_bounds(text) if s < end and e > start]


def hedge_scope(text: str, span: Sequence[int]) -> str:
    """The sentence(s) of `text` that overlap the [start, end) span: the words that qualify a quote there."""
    hit = _overlapping(text, span)
    return text[hit[0][0]:hit[-1][1]].strip() if hit else ""


def quote_hedges(text: str, span: Sequence[int], quote: str) -> list[str]:
    """The hedges qualifying a quote found at `span` of a message: in the quote or its sentence(s) (pure rule)."""
    return hedges(hedge_scope(text, span) + "\n" + quote)


def is_question(sentence: str) -> bool:
    """Whether one sentence asks: its closing punctuation holds a question mark, or it ends with 吗."""
    text = sentence.strip()
    closing = _CLOSING.search(text)
    if closing and any(mark in closing.group() for mark in _QUESTION_MARKS):
        return True
    body = text[:closing.start()] if closing else text
    return body.endswith(_QUESTION_PARTICLES)


def is_pure_question(text: str) -> bool:
    """Whether a message only asks (every sentence is a question): a question accepts nothing."""
    sentences = [text[a:b].strip() for a, b in sentence_bounds(text) if text[a:b].strip()]
    return bool(sentences) and all(is_question(s) for s in sentences)


def asked(text: str, span: Sequence[int], quote: str) -> str | None:
    """The question a quote found at `span` of a message is or reaches into, or None when it only states."""
    if is_question(quote):
        return quote.strip()
    for s, e in _overlapping(text, span):
        if is_question(text[s:e]):
            return text[s:e].strip()
    return None


# -- matching --------------------------------------------------------------------------------------
def _units(text: str) -> list[tuple[str, int, int]]:
    """The NFC form of `text` as (character, start, end) of the original characters it came from.

    NFC composes a base with the marks after it, so the text is cut where a character cannot combine with what
    precedes it (a mark, a Hangul vowel or final jamo, an Indic length mark can), each run normalised alone."""
    if unicodedata.is_normalized("NFC", text):
        return [(ch, i, i + 1) for i, ch in enumerate(text)]
    runs: list[list[int]] = []
    for i, ch in enumerate(text):
        if runs and unicodedata.combining(ch):
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1])
    merged: list[list[int]] = []
    for run in runs:  # a starter that composes with the run before it (e.g. U+1161 after U+1100) joins that run
        if merged:
            last = merged[-1]
            a, b = text[last[0]:last[1]], text[run[0]:run[1]]
            if unicodedata.normalize("NFC", a + b) != unicodedata.normalize("NFC", a) + unicodedata.normalize("NFC", b):
                last[1] = run[1]
                continue
        merged.append(run)
    units = [(ch, s, e) for s, e in merged for ch in unicodedata.normalize("NFC", text[s:e])]
    if "".join(u[0] for u in units) != unicodedata.normalize("NFC", text):  # never seen; keep the match exact
        return [(ch, 0, len(text)) for ch in unicodedata.normalize("NFC", text)]
    return units


def normalise(text: str) -> tuple[str, list[int], list[int]]:
    """NFC, whitespace runs collapsed to one space and trimmed; with each kept character's [start, end) in the
    original text."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pending: tuple[int, int] | None = None
    for ch, s, e in _units(text):
        if ch.isspace():
            if out and pending is None:
                pending = (s, e)
            continue
        if pending is not None:
            out.append(" ")
            starts.append(pending[0])
            ends.append(pending[1])
            pending = None
        out.append(ch)
        starts.append(s)
        ends.append(e)
    return "".join(out), starts, ends


def normal_quote(quote: str) -> str:
    """A quote as it is matched: NFC, whitespace runs collapsed, trimmed."""
    return " ".join(unicodedata.normalize("NFC", quote).split())


def locate(text: str, quote: str) -> list[int] | None:
    """[start, end) of the quote's last occurrence in the original text, matching after canonical (NFC) and
    whitespace normalisation only; None when it does not occur."""
    norm_quote = normal_quote(quote)
    if not norm_quote:
        return None
    if norm_quote not in " ".join(unicodedata.normalize("NFC", text).split()):
        return None  # the common miss, told without building the offset map
    norm_text, starts, ends = normalise(text)
    at = norm_text.rfind(norm_quote)
    if at < 0:
        return None
    return [starts[at], ends[at + len(norm_quote) - 1]]


M = TypeVar("M")


def latest_match(messages: Sequence[M], quote: str) -> tuple[M, list[int]] | None:
    """The latest message (by generation, then index) containing the whole quote, and its span there."""
    ordered = sorted(enumerate(messages), key=lambda im: (getattr(im[1], "generation", 0) or 0,
                                                        getattr(im[1], "index", 0) or 0, im[0]), reverse=True)
    for _, message in ordered:
        span = locate(getattr(message, "text", None) or "", quote)
        if span is not None:
            return message, span
    return None
