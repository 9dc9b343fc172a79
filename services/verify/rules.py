"""The rule verifier: a deterministic judge of a statement against its source excerpt, by cue lists in English and
Chinese (pure; no driver, no network). It is the scripted verifier of the tests and a cheap first layer; it reads
words, not meaning, so its verdict is a hint a reader sees as such ("per rules"), never a guarantee.

Checks, in order: a statement sharing (almost) no content word with its excerpt is unsupported; a hedge of the
source the statement drops ("maybe" → certain) is hedge_dropped; a condition the statement drops ("don't migrate
while API v1 reads it" → "never migrate") is condition_dropped; a once marker turned into an always marker ("this
time" → "always") is once_to_always; a universal quantifier the source lacks, or a named narrow scope the statement
drops, is scope_widened. Otherwise supported.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from credo.schema.verify import Excerpt, Verdict


def _cues(*words: str) -> re.Pattern[str]:
    """A pattern matching any cue: English ones on word boundaries, Chinese ones anywhere."""
    parts = [rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in sorted(words, key=len, reverse=True)]
    return re.compile("|".join(parts))


HEDGES = _cues("maybe", "perhaps", "probably", "possibly", "might", "may", "could be", "i think", "i guess",
               "i believe", "i suppose", "not sure", "likely", "seems", "apparently", "presumably",
               "可能", "我猜", "也许", "大概", "或许", "好像", "似乎", "估计", "不确定", "应该是")
CONDITIONS = _cues("while", "unless", "until", "if", "as long as", "only when", "when", "whenever", "before",
                   "after", "provided", "as soon as",
                   "只要", "除非", "之前", "以前", "的时候", "如果", "要是", "直到", "只有在", "期间")
ONCE = _cues("this time", "today", "once", "just now", "for now", "this once", "tonight", "this week", "right now",
             "这次", "这一次", "今天", "刚才", "暂时", "本次", "目前", "这回")
ALWAYS = _cues("always", "never", "every time", "forever", "all the time", "from now on", "in general",
               "总是", "永远", "每次", "从不", "一直", "始终", "以后都", "从来")
WIDE = _cues("all", "every", "any", "everywhere", "everyone", "across", "each",
             "所有", "任何", "全部", "每个", "一切", "各个")
NARROW = _cues("this repo", "this repository", "this project", "this service", "this team", "this branch",
               "the staging", "staging", "this cluster", "this environment",
               "这个仓库", "这个项目", "这个服务", "本仓库", "本项目", "测试环境", "这个团队", "这个分支")

_STOP = frozenset("the a an and or but of to in on for with at by from is are was were be been it its this that "
                  "these those we you they he she i me my our your their them us do does did not no so as than then "
                  "there here have has had will would should can just also".split())
_HAN = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[a-z0-9]+")
_HAN_STOP = frozenset("的了是在我们你他她它这那都也就不要会个和与吧吗呢啊说")


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _content(text: str) -> set[str]:
    """Content tokens: English words of three letters or more (no stop word, stemmed to five letters) and Han
    characters (no function character)."""
    words = {w[:5] for w in _WORD.findall(text) if len(w) >= 3 and w not in _STOP}
    return words | {c for c in _HAN.findall(text) if c not in _HAN_STOP}


def _without(pattern: re.Pattern[str], text: str) -> str:
    return pattern.sub(" ", text)


MIN_SHARED = 0.25  # below this share of the statement's content tokens found in the excerpt: unsupported


@dataclass(frozen=True)
class RuleVerifier:
    """The deterministic verifier (CREDO_VERIFIER=rules)."""

    name: str = "rules"

    def verify(self, statement: str, excerpt: Excerpt) -> Verdict:
        """Judge `statement` against `excerpt` (its quote and the message text it came from)."""
        return judge(statement, excerpt)


def judge(statement: str, excerpt: Excerpt) -> Verdict:
    """The rule verifier's verdict (pure)."""
    said = _norm(statement)
    source = _norm(" ".join(t for t in (excerpt.quote, excerpt.text) if t))
    if not source.strip():
        return Verdict(verdict="unsupported", reason="no source excerpt to check the statement against")
    cue_free = lambda t: _without(HEDGES, _without(CONDITIONS, _without(ONCE, _without(ALWAYS, t))))  # noqa: E731
    mine = _content(cue_free(said))
    theirs = _content(source)
    shared = {t for t in mine if t in theirs}
    if mine and len(shared) / len(mine) < MIN_SHARED:
        return Verdict(verdict="unsupported",
                       reason=f"the excerpt shares {len(shared)} of the statement's {len(mine)} content words")
    hedge = HEDGES.search(source)
    if hedge and not HEDGES.search(said):
        return Verdict(verdict="overreach", overreach_kind="hedge_dropped",
                       reason=f"the source hedges ({hedge.group(0)!r}); the statement is stated as certain")
    condition = CONDITIONS.search(source)
    if condition and not CONDITIONS.search(said):
        return Verdict(verdict="overreach", overreach_kind="condition_dropped",
                       reason=f"the source holds under a condition ({condition.group(0)!r}); the statement drops it")
    once, always = ONCE.search(source), ALWAYS.search(said)
    if once and always and not ALWAYS.search(source):
        return Verdict(verdict="overreach", overreach_kind="once_to_always",
                       reason=f"the source speaks of one occasion ({once.group(0)!r}); the statement says "
                              f"{always.group(0)!r}")
    wide = WIDE.search(_without(ALWAYS, said))
    if wide and not WIDE.search(_without(ALWAYS, source)):
        return Verdict(verdict="overreach", overreach_kind="scope_widened",
                       reason=f"the statement widens the scope ({wide.group(0)!r}) beyond what the source says")
    narrow = NARROW.search(source)
    if narrow and not NARROW.search(said):
        return Verdict(verdict="overreach", overreach_kind="scope_widened",
                       reason=f"the source limits it to {narrow.group(0)!r}; the statement drops that scope")
    return Verdict(verdict="supported", reason="the statement keeps the source's hedges, conditions, occasion and "
                                               "scope (by the rule verifier's cue lists)")
