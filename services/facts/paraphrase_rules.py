"""When two statements of one (subject, predicate, scope) are one claim in other words: the join decision of dedup at
write (DESIGN §3 restatements, §9), pure and table-tested.

Similarity of the all-MiniLM-L6-v2 vectors already computed at write cannot decide alone: a value swapped in the
same wording ("meetings in the morning" / "in the afternoon", "the chief of air staff? Amao" / "? Abubakar") scores
higher than most true paraphrases. So the statements are first compared as words, after a normalisation that makes
equal what only differs in form (case, apostrophes, plural and a few suffixes, number words and digits, "1st" and
"first", hyphenated compounds, a spelling variant of a word on the other side):

- **blockers**, never a join: the numbers differ (a time, a date, a count, a year); one side negates or hedges what
  the other states plainly (not / no / never / 不 / 没; maybe / might / 可能); a quantifier of scope changed (always /
  sometimes, all / some, 全部 / 部分); the same contrast with its roles swapped ("Kate, not Katherine" / "Katherine,
  not Kate");
- **what differs**: the words each side has that the other lacks. When at most one side has any (a reordering, an
  elaboration, a frame word), similarity at or above LOOSE_THRESHOLD joins. When both have some, the pair is either
  a value swapped or a restructured paraphrase, and the vectors of the two *frames* (each statement without its
  differing words) tell which: a swapped value is what makes the statements differ, so their similarity falls well
  below their frames' (SWAP_DROP); a paraphrase's differing words say the same thing, and it does not.

The frames' vectors are embedded before the write's transaction opens, like every statement's (services/facts/dedup
`pool` names them). Measured by `bench/bench_dedup.py` on the hand-written set and on the pairs from real text, both
in `tests/services/facts/paraphrase_pairs.json` (figures in bench/RESULTS.md).
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

LOOSE_THRESHOLD = 0.60
"""Similarity at or above which a statement joins when at most one side has words the other lacks."""

STRICT_THRESHOLD = 0.60
"""Similarity at or above which a statement whose two sides each have words the other lacks may join, and then only
when its frames say the differing words are no swapped value (SWAP_DROP). Measured: 0.60, 0.70 and 0.80 make no wrong
merge on either set; 0.60 joins one hand-written paraphrase more than 0.70 ("Keep answers short…" at 0.649)."""

SWAP_DROP = 0.045
"""How far the statements' similarity may fall below their frames' (each without its differing words) before the
differing words read as a swapped value: a value swapped in a shared frame scores 0.05–0.53 below it, the
paraphrases of both sets at most 0.04 (bench/bench_dedup.py prints both)."""

_FRAME = frozenset(
    "a an the i im me my mine we our us you your it its is are am be been being was were to of in on at for with by "
    "and or as do does did done please should would will shall can could must need needs required require what "
    "which who whos whom whose when where why how this that these those each every one ones "
    "like liked prefer preferred want wanted love loved enjoy enjoyed rather "
    "he she his her him they them their there here so just also "
    "go goes going gone went get got make made give keep kept use used have has had take taken "
    "out up off from through into onto via about name called choice way form kind sort thing".split())
_NEGATIONS = frozenset("not no never none nothing nobody neither nor without cannot cant non".split())
_HEDGES = frozenset("maybe perhaps probably possibly might may likely unlikely unsure apparently seems seem "
                    "presumably guess suspect reckon".split())
_SCOPE = {  # a quantifier of scope: two statements with different ones are different claims
    "always": "always", "never": "never", "sometimes": "sometimes", "often": "often", "rarely": "rarely",
    "usually": "usually", "occasionally": "sometimes", "seldom": "rarely", "all": "all", "some": "some",
    "few": "few", "any": "any", "only": "only", "总是": "always", "有时": "sometimes", "从不": "never",
    "全部": "all", "所有": "all", "部分": "some", "有些": "some", "一些": "some", "只": "only", "仅": "only",
}
_ZH_SCOPE = tuple(k for k in _SCOPE if not k.isascii())
_ALL_TIME = re.compile(r"\bof all time\b|\ball the time\b|\bat all\b")  # "of all time", "no sugar at all": no scope
_CONTRAST = "≠"
_CONTRASTING = re.compile(r",\s*(?:and\s+)?not\b|\brather than\b|\binstead of\b|\bover\b|，?而不是|，?不是")
"""Where a statement sets one value against another ("X, not Y", "X rather than Y", "X over Y", "X，而不是 Y")."""
_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
         "seventeen eighteen nineteen".split()
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(_UNITS) if w != "one"}  # "one" is a pronoun as often as a count
_NUMBER_WORDS.update({w: str(10 * i) for i, w in enumerate(
    "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if i > 1})
_ORDINALS = {w: str(i) for i, w in enumerate(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()) if i}
_HOUR = "|".join(["[0-9]{1,2}", *sorted(_NUMBER_WORDS, key=len, reverse=True), "one"])
_CLOCK = re.compile(rf"\b(?:(?P<half>half|quarter) past )?(?P<h>{_HOUR})(?::(?P<m>[0-9]{{2}}))?"
                    r"(?: ?(?P<pm>am|pm|a\.m\.|p\.m\.|in the morning|in the evening|in the afternoon|at night|o ?clock)\b)?"
                    r"(?=\s|$|[,.;!?])")
_NOON = re.compile(r"\bnoon\b|\bmidnight\b")
_FREQUENCIES = frozenset({"once", "twice", "thrice"})  # counts of a frequency: "once a week" is no "every night"
_NUMBER = re.compile(r"^\d+(?:[.:,]\d+)*$")
_ORDINAL_DIGITS = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
_TOKEN = re.compile(r"≠|[0-9]+(?:[.:,][0-9]+)*(?:st|nd|rd|th)?|[^\W\d_]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_ZH_FRAME = frozenset("的了是在和与及并把被就也都而且又还对于从向给让之其这那此该个些为以所要着")
_ZH_NEGATIONS = ("不", "没", "无", "非", "未", "别", "勿", "莫")
_ZH_NOT_NEGATIONS = ("未来", "非常", "无论", "不仅", "不但", "不过", "不断", "并非", "无数", "莫过")
_ZH_HEDGES = ("可能", "也许", "或许", "大概", "我猜", "我觉得", "好像", "似乎", "估计", "不确定", "说不定")
_SUFFIXES = ("ational", "ation", "ition", "ness", "ment", "ing", "ies", "ied", "ed", "ly", "es", "ic", "al", "y", "e")


@dataclass(frozen=True)
class Words:
    """A statement as the join decision compares it: its value words (stems, in order), numbers, whether it
    negates or hedges, its scope quantifiers, and the contrasts it draws ("X not Y")."""

    values: tuple[str, ...]
    numbers: tuple[str, ...]
    negated: tuple[frozenset[str], ...]
    hedged: bool
    scope: tuple[tuple[frozenset[str], frozenset[str]], ...]  # (quantifiers, value words) of each clause with any
    contrasts: frozenset[tuple[frozenset[str], frozenset[str]]]
    listed: bool = False


def stem(word: str) -> str:
    """A crude, stable stem: a plural -s, then one common suffix, stripped while at least four letters remain."""
    if word.endswith("s") and not word.endswith("ss") and len(word) > 4:
        word = word[:-1]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _frame_word(token: str) -> bool:
    return token in _FRAME or (token.endswith("s") and token[:-1] in _FRAME)


def _clock(match: re.Match[str]) -> str:
    if not (match.group("m") or match.group("half") or match.group("pm")):
        return match.group(0)  # a bare number is no time of day
    hour = int(_NUMBER_WORDS.get(match.group("h"), match.group("h")) if match.group("h") != "one" else 1)
    minute = match.group("m") or ""
    if match.group("half"):
        minute = "30" if match.group("half") == "half" else "15"
    afternoon = match.group("pm") in ("pm", "p.m.", "in the evening", "in the afternoon", "at night")
    hour = hour + 12 if afternoon and hour < 12 else hour
    return f" {hour}:{minute or '00'} "


def _folded(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text or "").casefold().replace("\u2019", "'")
    folded = folded.replace("n't", " not").replace("'", "").replace("-", " ")
    folded = _NOON.sub(lambda m: " 12:00 " if m.group(0).strip() == "noon" else " 0:00 ", folded)
    folded = _CLOCK.sub(_clock, folded)
    return _ALL_TIME.sub(" ", folded)


def _zh_negated(text: str) -> bool:
    for compound in _ZH_NOT_NEGATIONS:
        text = text.replace(compound, "")
    return any(n in text for n in _ZH_NEGATIONS)


def tokens(text: str) -> list[str]:
    """The statement's tokens after normalisation (English words, numbers, Chinese characters, contrast marks)."""
    folded = _CONTRASTING.sub(f" {_CONTRAST} ", _folded(text))
    out: list[str] = []
    for raw in _TOKEN.findall(folded):
        if _CJK.search(raw):
            for compound in (*_ZH_NOT_NEGATIONS, *_ZH_SCOPE):
                raw = raw.replace(compound, " ")
            out += [ch for ch in raw if _CJK.match(ch) and ch not in _ZH_FRAME and ch not in _ZH_NEGATIONS]
            continue
        ordinal = _ORDINAL_DIGITS.match(raw)
        out.append(ordinal.group(1) if ordinal else _ORDINALS.get(raw) or _NUMBER_WORDS.get(raw) or raw)
    return out


def _value(token: str, named: frozenset[str] = frozenset()) -> bool:
    return token == _CONTRAST or token in named or not (
        _frame_word(token) or token in _NEGATIONS or token in _HEDGES or token in _SCOPE or token in _FREQUENCIES
        or _NUMBER.match(token))


_NAMED = re.compile(r"(?<![.!?:]\s)(?<!^)\b([A-Z][^\W\d_]*)")
_CLAUSE = re.compile(r"[,;:，；：、]")


def _named(text: str) -> frozenset[str]:
    """Words capitalised inside a sentence ("written in Go"): names, values whatever the frame list says."""
    return frozenset(w.casefold() for w in _NAMED.findall(unicodedata.normalize("NFKC", text or "").strip())
                     if w not in ("I", "I'm", "I'd"))


@functools.lru_cache(maxsize=4096)  # a candidate's statement is compared with every row of its (subject, predicate)
def words(text: str) -> Words:
    """The comparison form of a statement (English words and Chinese characters alike)."""
    folded = _folded(text)
    named = _named(text)
    zh = bool(_CJK.search(folded))
    toks = tokens(text)
    negated: list[frozenset[str]] = []  # the value words of each clause that negates
    for clause in _CLAUSE.split(_CONTRASTING.sub(f" {_CONTRAST} ", folded)):
        clause_tokens = tokens(clause)
        if any(t in _NEGATIONS for t in clause_tokens) or (zh and _zh_negated(clause)):
            negated.append(frozenset(stem(t) for t in clause_tokens if _value(t, named) and t != _CONTRAST))
    hedged = any(t in _HEDGES for t in toks) or (zh and any(h in folded for h in _ZH_HEDGES))
    scope = [(frozenset({_SCOPE[t] for t in tokens(c) if t in _SCOPE} | {_SCOPE[k] for k in _ZH_SCOPE if zh and k in c}),
              frozenset(stem(t) for t in tokens(c) if _value(t, named) and t != _CONTRAST))
             for c in _CLAUSE.split(folded)]
    stems = [t if t == _CONTRAST else stem(t) for t in toks if _value(t, named)]
    contrasts = set()
    if _CONTRAST in stems:
        at = stems.index(_CONTRAST)
        contrasts.add((frozenset(stems[:at]), frozenset(s for s in stems[at + 1:] if s != _CONTRAST)))
    listed = len(re.findall(r"[,、，]", text or "")) >= 2
    return Words(tuple(s for s in stems if s != _CONTRAST), tuple(sorted(t for t in toks if _NUMBER.match(t)
                                                                         or t in _FREQUENCIES)),
                 tuple(negated), hedged, tuple((q, c) for q, c in scope if q), frozenset(contrasts), listed)


def _negates(clauses: tuple[frozenset[str], ...], other: Words) -> bool:
    """Whether a negating clause speaks of what the other statement says (an added clause that negates something
    the other never mentions — "I'm vegetarian" / "I don't eat meat, I'm a vegetarian" — does not negate it)."""
    return any(not clause or any(_variant(x, y) or x == y for x in clause for y in other.values) for clause in clauses)


def _quantifies(a: Words, other: Words) -> frozenset[str]:
    """The quantifiers of `a` in clauses that speak of what `other` says (one in an added clause about something
    else — "…, to check all derived entries" — does not scope the shared claim)."""
    return frozenset(q for qs, clause in a.scope if _negates((clause,), other) for q in qs)


def blocked(a: Words, b: Words) -> str | None:
    """Why two statements cannot be one claim whatever their similarity, or None."""
    if a.numbers != b.numbers:
        return "a number differs"
    if bool(a.negated) != bool(b.negated) and (_negates(a.negated, b) or _negates(b.negated, a)):
        return "one side negates what the other states"
    if a.hedged != b.hedged:
        return "one side hedges what the other states plainly"
    if _quantifies(a, b) != _quantifies(b, a):
        return "a quantifier of scope differs"
    for before, after in a.contrasts:
        if any(before & b_after and after & b_before for b_before, b_after in b.contrasts):
            return "the same contrast with the roles swapped"
    if a.listed and b.listed and a.values != b.values and Counter(a.values) == Counter(b.values):
        return "the same items listed in another order"
    return None


def _variant(x: str, y: str) -> bool:
    """Two spellings of one word ("bake" / "baking", "alfs" / "alf"): a long shared prefix, or nearly the same."""
    shared = len(x) if x == y else next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    return shared >= 4 or (min(len(x), len(y)) >= 3 and difflib.SequenceMatcher(a=x, b=y).ratio() >= 0.8)


def differing(a: Words, b: Words) -> tuple[list[str], list[str]]:
    """The value words each side has that the other lacks, a spelling variant of the other side's counted as it."""
    only_a = list((Counter(a.values) - Counter(b.values)).elements())
    only_b = list((Counter(b.values) - Counter(a.values)).elements())
    for x in list(only_a):
        match = next((y for y in only_b if _variant(x, y)), None)
        if match is not None:
            only_a.remove(x)
            only_b.remove(match)
    return only_a, only_b


def frame(text: str, drop: list[str]) -> str:
    """`text` without the words whose stems are in `drop` (the frame both sides of a pair share)."""
    dropped, named = set(drop), _named(text)
    if _CJK.search(text):
        return "".join(ch for ch in text if ch not in dropped)
    kept = [w for w in re.findall(r"\S+", text)
            if not any(_value(t, named) and stem(t) in dropped for t in tokens(w)) or not tokens(w)]
    return " ".join(kept)


def frames(a: str, b: str, score: float) -> tuple[str, str] | None:
    """The two frames whose similarity decides the pair (`same_claim`), or None when the pair needs none."""
    wa, wb = words(a), words(b)
    if score < STRICT_THRESHOLD - 1e-9 or blocked(wa, wb):
        return None
    only_a, only_b = differing(wa, wb)
    return (frame(a, only_a), frame(b, only_b)) if only_a and only_b else None


def same_claim(a: str, b: str, score: float, frame_score: float | None = None) -> bool:
    """Whether statement `b` restates `a`: `score` is the cosine of their vectors, `frame_score` that of their
    `frames` when the pair needs it (without it such a pair never joins)."""
    wa, wb = words(a), words(b)
    if blocked(wa, wb):
        return False
    only_a, only_b = differing(wa, wb)
    if not (only_a and only_b):
        return score >= LOOSE_THRESHOLD - 1e-9
    if score < STRICT_THRESHOLD - 1e-9 or frame_score is None:
        return False
    return frame_score - score <= SWAP_DROP + 1e-9
