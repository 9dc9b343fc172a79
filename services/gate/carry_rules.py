"""Whether a quote carries the claim remembered on its word: the write gate's rule against a quote that proves
someone spoke but not what they said (DESIGN §3; tables in tests/services/gate/test_carry_rules.py).

"Alice" from "Alice said hello." occurs verbatim, yet backs nothing about Alice being fired. The gate cannot prove
entailment; it proves that the claim's words are the quote's words:

1. Words. Texts are compared as words: NFKC, case-folded, split into letter-and-digit runs, each CJK character a
   word of its own (CJK is written without spaces), with a light English suffix fold ("deploys", "deployed",
   "deploy" are one word; "ran" and "run" are not) and function words dropped (STOP, CJK_STOP).
2. Subject. A subject the caller names is carried when the quote holds its whole name, or holds every capitalised
   word and number of it and at least half of its words ("nightly export" by "the export"; "Acme account" not by
   "the Globex account"; "Ivy Chen" not by "Ivy": name the subject as the quote does), or when it is the speaker
   (the message's author: "I take my coffee black" from Maria backs a claim about Maria). A subject the gate
   chose itself (the author, the project) or that a replacement keeps is not checked.
3. Object. An entity or text object the caller gives is carried like a name; a number must occur in the quote as
   a number (1,200 = 1200 = 1200.0; "v1" holds no number 1); a date must have its year, and its month (a number
   or an English name) and day as precise as the date is.
4. Content. Every number and every capitalised word (a name, in any position) of the content must occur in the
   quote, unless it is the speaker's name or a word of the subject's or object's name (judged by 2 and 3); and
   more than half of the content's distinct words must occur in it. A rewrite may add a minority of words for
   context ("The team deploys on Fridays" from "We deploy on Fridays"); it may not add the claim.
5. A predicate is vocabulary, never checked ("owned_by" is said by "owns", "led_by" by "leads").

What it does not check: that the quote entails the claim. A negation dropped ("Alice was not fired" backing
"Alice was fired"), "once" made "always", a condition or scope dropped pass when the words are there: that is the
verifier's (DESIGN §11), not the gate's. Valid time (valid_from / valid_to) is not checked against the quote.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

STOP = frozenset("""
a an the and or but nor so if then than that this these those there here of to in on at for with by from as into
onto about is are was were be been being am do does did done has have had having i me my mine myself we us our ours
you your yours he him his she her hers it its they them their theirs im ive id ill youre thats theres lets will
would shall should can could may might must also just very really actually honestly basically please ok okay yes
yeah well hmm oh what which who whom whose when where why how all any each every some such own same other now
still already again even too
""".split())
# particles and pronouns of Chinese and Japanese, which carry no claim (CJK is compared character by character)
CJK_STOP = frozenset("的了是在和与及也都就还又吗呢吧啊呀嗎我你他她它们們这這那个個着著过過把被给給很之其而のはがをにでともへや")
SPEAKER_WORDS = frozenset({"user"})  # how an agent names the person it talks to
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+(?:['’][^\W_{_CJK}]+)*")
_NUMBER = re.compile(r"(?<![\w.,])[-−]?\d+(?:[.,]\d+)*")
_DIGITS = re.compile(r"\d+")
_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")


@dataclass(frozen=True)
class Word:
    """One word of a text: as written, its comparison form, and whether it is a name, a number or a stop word."""

    raw: str
    text: str
    name: bool
    number: bool
    stop: bool


@dataclass(frozen=True)
class Gap:
    """What a quote does not carry: the claim's part (subject, object or content) and the rule it broke."""

    field: str
    rule: str


def fold(word: str) -> str:
    """A case-folded English word without its inflection (-s, -es, -ies, -ing, -ed, a final -e); others as is."""
    if not (word.isascii() and word.isalpha()) or len(word) <= 3:
        return word
    for suffix, instead in (("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith(("ss", "us", "is")):
            word = word[:-len(suffix)] + instead
            break
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            if word[-1] == word[-2] and word[-1] not in "lsz":  # "running", "planned": run, plan
                word = word[:-1]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def words(text: str) -> list[Word]:
    """The words of a text in order (stop words marked, not dropped)."""
    found = []
    for m in _TOKEN.finditer(unicodedata.normalize("NFKC", text or "")):
        raw = m.group().replace("'", "").replace("’", "")
        low = raw.casefold()
        found.append(Word(raw=m.group(), text=fold(low), name=raw[:1].isupper(),
                          number=any(c.isdigit() for c in raw), stop=low in STOP or low in CJK_STOP))
    return found


def _meaningful(ws: list[Word]) -> list[Word]:
    """Distinct non-stop words (all words when every one is a stop word), a word a name if any occurrence is."""
    chosen = [w for w in ws if not w.stop] or ws
    seen: dict[str, Word] = {}
    for w in chosen:
        had = seen.get(w.text)
        seen[w.text] = w if had is None else Word(had.raw, had.text, had.name or w.name, had.number or w.number,
                                                  had.stop)
    return list(seen.values())


def _shown(ws: list[Word]) -> str:
    listed = ", ".join(repr(w.raw) for w in ws[:6])
    return listed + (f" and {len(ws) - 6} more" if len(ws) > 6 else "")


def _contains(seq: list[str], part: list[str]) -> bool:
    n = len(part)
    return n > 0 and any(seq[i:i + n] == part for i in range(len(seq) - n + 1))


def name_missing(name: str, quote: list[Word]) -> list[Word]:
    """The words of `name` that keep the quote from naming it ([] when it does: the whole name, or every name
    word and number of it and at least half of its words)."""
    all_words = words(name)
    if _contains([w.text for w in quote], [w.text for w in all_words]):
        return []
    own = _meaningful(all_words)
    have = {w.text for w in quote}
    missing = [w for w in own if w.text not in have]
    if any(w.name or w.number for w in missing) or len(missing) * 2 > len(own):
        return missing
    return []


def is_speaker(name: str, speaker: str | None) -> bool:
    """Whether a name is the message's author (every word of it among the author's words), or "user"."""
    own = {w.text for w in _meaningful(words(name))}
    return bool(own) and own <= ({w.text for w in words(speaker or "")} | SPEAKER_WORDS)


def numbers_in(text: str) -> set[Decimal]:
    """Every number written in a text, read with "," as a thousands separator and, as well, as a decimal comma."""
    found: set[Decimal] = set()
    for m in _NUMBER.finditer(unicodedata.normalize("NFKC", text).replace("−", "-")):
        raw = m.group()
        for reading in (raw.replace(",", ""), raw.replace(".", "").replace(",", ".")):
            try:
                found.add(Decimal(reading))
            except InvalidOperation:
                continue
    return found


def date_carried(value: str, quote: str) -> bool:
    """Whether the quote holds a date literal's year, and its month and day as far as the literal has them."""
    m = _DATE.match(value.strip())
    if m is None:
        return value.strip() in quote
    text = unicodedata.normalize("NFKC", quote)
    numbers = {int(d) for d in _DIGITS.findall(text)}
    lowered = {w.casefold() for w in re.findall(r"[A-Za-z]+", text)}
    year, month, day = (int(g) if g else None for g in m.groups())
    if year not in numbers:
        return False
    if month is not None:
        name = MONTHS[month - 1] if 1 <= month <= 12 else ""
        if month not in numbers and not lowered & {name, name[:3], name[:4]}:
            return False
    return day is None or day in numbers


def object_gap(kind: str, value: str, quote: str, quote_words: list[Word]) -> Gap | None:
    """Whether the quote carries an object the caller gave: `kind` is entity, string, number or date."""
    if kind == "number":
        try:
            wanted = Decimal(value)
        except InvalidOperation:
            wanted = None
        if wanted is None or wanted not in numbers_in(quote):
            return Gap("object", f"the number {value} does not occur in the quote (numbers are carried as digits)")
        return None
    if kind == "date":
        if not date_carried(value, quote):
            return Gap("object", f"the date {value} is not in the quote: it needs the year, and the month and day "
                                 "as precise as the date is")
        return None
    missing = name_missing(value, quote_words)
    if missing:
        return Gap("object", f"{value!r} is not named by the quote ({_shown(missing)} not in it): quote the words "
                             "that name it, or name the object as the quote does")
    return None


def carries(quote: str, *, content: str, subject: str | None = None, obj: tuple[str, str] | None = None,
            speaker: str | None = None) -> Gap | None:
    """None when the quote carries the claim, else the first part it does not carry (rules 1-5 above).

    `subject`: the subject the caller named (None: one the gate chose); `obj`: (type, value) of the object the
    caller gave (None: the content is the object); `speaker`: the author of the quoted message."""
    said = words(quote)
    exempt: set[str] = set()
    if subject is not None and not is_speaker(subject, speaker):
        missing = name_missing(subject, said)
        if missing:
            return Gap("subject", f"{subject!r} is not named by the quote ({_shown(missing)} not in it): quote the "
                                  "words that name it, or name the subject as the quote does")
    if subject is not None:
        exempt |= {w.text for w in words(subject)}
    if obj is not None:
        gap = object_gap(obj[0], obj[1], quote, said)
        if gap is not None:
            return gap
        exempt |= {w.text for w in words(obj[1])}
    have = {w.text for w in said} | {w.text for w in words(speaker or "")} | SPEAKER_WORDS
    claim = _meaningful(words(content))
    unsaid = [w for w in claim if (w.name or w.number) and w.text not in have and w.text not in exempt]
    if unsaid:
        return Gap("content", f"has {_shown(unsaid)}, which the quote does not: every name and number of the "
                              "content must be in the quote")
    missing = [w for w in claim if w.text not in have | exempt]
    if claim and len(missing) * 2 >= len(claim):
        return Gap("content", f"says more than the quote: {len(missing)} of its {len(claim)} words "
                              f"({_shown(missing)}) are not in it; quote the sentence that states the claim, or "
                              "remember only what the quote says")
    return None

