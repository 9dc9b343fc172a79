"""Dedup at write, pure rules (DESIGN §3, §9): when a new claim is a near-duplicate of an established one, and
what the joined fact's evidence, confidence and independent-source count become.

A near-duplicate joins the canonical fact as an alias (its statement kept among the fact's `aliases`, its source
as one more SOURCED_FROM edge) instead of becoming a second fact. A restatement (exact, or a paraphrase joined at
write time) is not a merge: each source states the whole claim on its own, so the fact keeps the strongest evidence
of the sources that state it, and it is confirmed once one eligible human states it without a hedge (`restated`).
Only a source that came through the gate (a verbatim human quote) can raise it; an agent's or a tool's write never
does. Merging different facts (services/merge_facts) still gives the weakest. Corroboration is a separate axis:
only a source independent of those already backing the fact (another author, another document) raises
`confidence`, by the noisy-OR rule of `corroborated`; restating one's own claim never does.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from credo.schema.facts import EVIDENCE_ORDER, Epistemic, Evidence
from credo.services.facts.paraphrase_rules import LOOSE_THRESHOLD, frames, same_claim

SIMILARITY_THRESHOLD = LOOSE_THRESHOLD
"""Cosine similarity (all-MiniLM-L6-v2) below which two statements of the same subject, predicate and scope are
never one claim; at or above it services/facts/paraphrase_rules.py decides (blockers, what differs, the frames).

Before issue 27 the rule was this threshold at 0.80 with the `substitution` guard below: 23 of the 40 hand-written
paraphrases joined, 17 of the 46 pairs from real text, with 0 and 5 wrong merges (bench/bench_dedup.py prints both
rules; figures in bench/RESULTS.md). A missed paraphrase costs little (two facts, or a kept conflict a person
settles); a wrong merge hides a different value, so every rule is held to zero measured wrong merges.
"""

DEFAULT_SOURCE_CONFIDENCE = 0.6
"""The confidence one source lends a claim that states none (used by the corroboration rule)."""

_STOP = frozenset(
    "a an the i im me my we our us you your it its is are am be been to of in on at for with by and as do does "
    "please should would will shall what how this that these those every each all "
    # verbs of preference carry no value: "prefers tea" and "likes tea" state the same preference
    "like likes liked prefer prefers preferred want wants love loves enjoy enjoys rather".split())
_WORD = re.compile(r"[^\W_]+(?::[^\W_]+)?")


def normalised(text: str) -> str:
    """A statement's comparison form: NFKC, case-folded, punctuation dropped, whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", text or "").casefold()
    return " ".join(_WORD.findall(folded))


def content_words(text: str) -> list[str]:
    """The content words of a statement in order (stop words dropped, a plural -s stripped)."""
    words = [w.replace("'", "") for w in _WORD.findall(normalised(text))]
    return [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words if w not in _STOP]


def substitution(a: str, b: str) -> bool:
    """Whether `b` reads as `a` with a value swapped in the same wording ("tea with milk" → "tea with lemon",
    "Kate, not Katherine" → "Katherine, not Kate"): the pattern embeddings rate as near-identical although the
    claims differ. A paraphrase restructures the sentence; a different value keeps it and replaces a few words.
    The join decision before issue 27 (bench/bench_dedup.py measures it against paraphrase_rules.same_claim)."""
    wa, wb = content_words(a), content_words(b)
    if wa == wb:
        return False
    if sorted(wa) == sorted(wb):
        # the same words in another order: a block moved to the front ("An Americano, no sugar, is how I take my
        # coffee") restates; anything else swapped the roles around ("Kate, not Katherine" → "Katherine, not Kate")
        return not any(wb == wa[k:] + wa[:k] for k in range(1, len(wa)))
    matcher = difflib.SequenceMatcher(a=wa, b=wb, autojunk=False)
    kept = sum(block.size for block in matcher.get_matching_blocks())
    replaced = any(op == "replace" for op, *_ in matcher.get_opcodes())
    return replaced and (kept / max(len(wa), len(wb)) >= 0.5 or max(len(wa), len(wb)) <= 2)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 when either is empty or zero)."""
    dot = sum(x * y for x, y in zip(a, b))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


@dataclass(frozen=True)
class Candidate:
    """An established claim a new statement may join: its version, canonical statement, aliases and vector."""

    version_id: str
    statement: str
    aliases: tuple[str, ...] = ()
    embedding: Sequence[float] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Match:
    """Why a statement joins a candidate: `exact` (same normalised statement or alias) or `similar` (score)."""

    candidate: Candidate
    how: str
    score: float


def near_duplicate(
    statement: str, vector: Sequence[float] | None, candidates: Iterable[Candidate], *,
    threshold: float = SIMILARITY_THRESHOLD, vectors: Mapping[str, Sequence[float]] | None = None,
) -> Match | None:
    """The candidate `statement` restates, or None. An exact normalised match (statement or alias) always counts;
    without a vector (no embedder) nothing else does; with one, the most similar candidate at or above `threshold`
    that paraphrase_rules.same_claim judges one claim with it (`vectors`: the embedded frames it may ask for, see
    `frames_needed`; a pair whose frames are missing does not join)."""
    pool = list(candidates)
    norm = normalised(statement)
    for c in pool:
        if norm and norm in {normalised(s) for s in (c.statement, *c.aliases)}:
            return Match(c, "exact", 1.0)
    if vector is None:
        return None
    scored = sorted(((cosine(vector, c.embedding), c) for c in pool if c.embedding),
                    key=lambda sc: sc[0], reverse=True)
    for score, c in scored:
        if score < threshold - 1e-9:  # float noise must not decide a boundary case
            break
        pair = frames(c.statement, statement, score)
        frame_score = None
        if pair is not None and vectors is not None and pair[0] in vectors and pair[1] in vectors:
            frame_score = cosine(vectors[pair[0]], vectors[pair[1]])
        if same_claim(c.statement, statement, score, frame_score):
            return Match(c, "similar", score)
    return None


def frames_needed(statement: str, vector: Sequence[float] | None, candidates: Iterable[Candidate], *,
                  threshold: float = SIMILARITY_THRESHOLD) -> list[str]:
    """The frames `near_duplicate` will ask for to decide `statement` against `candidates` (to embed before the
    write's transaction opens)."""
    if vector is None:
        return []
    needed: list[str] = []
    for c in candidates:
        if c.embedding:
            score = cosine(vector, c.embedding)
            pair = frames(c.statement, statement, score) if score >= threshold - 1e-9 else None
            needed += list(pair or ())
    return needed


def dedupable(kind: str, object_type: str) -> bool:
    """Only semantic claims with a text object are merged by wording; an entity, number or date object that
    differs is a different claim, however alike its statement reads ("X owned_by Alice" / "X owned_by Alina")."""
    return kind == "semantic" and object_type == "string"


@dataclass(frozen=True)
class Restated:
    """What a restatement leaves a claim with: its evidence and epistemic status, and whether it opens the question
    (a person who stated it plainly now hedges it: the claim awaits re-verification, listed under open)."""

    evidence: Evidence
    epistemic: Epistemic
    opens: bool = False


def restated(evidence: str, epistemic: str, *, offered: str, offered_epistemic: str, vouched: bool,
             own_voice: bool = False) -> Restated:
    """The claim's standing once a source restates it (pure rule, DESIGN §3).

    `evidence`/`epistemic`: the claim's now; `offered`/`offered_epistemic`: the restating row's; `vouched`: the row
    came through the gate (a verbatim human quote); `own_voice`: its author already stated the claim without a hedge.
    An unvouched row (an agent's or a tool's write) changes nothing. A vouched one gives the strongest evidence of
    the two; stated plainly it confirms; hedged, it leaves a claim someone vouched for plainly confirmed (opening
    the question when that someone hedges it now) and makes a claim nobody vouched for a hypothesis."""
    held, held_epistemic = Evidence(evidence), Epistemic(epistemic)
    if not vouched:
        return Restated(held, held_epistemic)
    strongest = max(held, Evidence(offered), key=EVIDENCE_ORDER.index)
    if Epistemic(offered_epistemic) == Epistemic.CONFIRMED:
        return Restated(strongest, Epistemic.CONFIRMED)
    if held_epistemic == Epistemic.CONFIRMED and held != Evidence.UNKNOWN:
        return Restated(strongest, Epistemic.CONFIRMED, opens=own_voice)
    return Restated(strongest, Epistemic.HYPOTHESIS)


def independence_key(source: dict[str, Any]) -> tuple[str, str]:
    """Who or what vouches through a source: a message's author, a document's uri (or title), else the source
    itself. Two messages by one person are one voice; two documents at one address are one document."""
    kind = source.get("kind") or "source"
    if kind == "message" and source.get("author"):
        return ("author", normalised(source["author"]))
    if kind == "document" and (source.get("uri") or source.get("title")):
        return ("document", source.get("uri") or normalised(source["title"]))
    return (kind, source.get("source_id") or "")


def independent_count(sources: Iterable[dict[str, Any]]) -> int:
    """How many independent sources back a claim (distinct `independence_key`s)."""
    return len({independence_key(s) for s in sources})


def corroborated(confidence: float | None, added: float | None, *, before: int, after: int) -> float | None:
    """A claim's confidence once its independent sources go from `before` to `after`: noisy-OR, each new
    independent source failing independently, c' = 1 − (1 − c)(1 − a), with DEFAULT_SOURCE_CONFIDENCE standing in
    for a confidence nobody stated. No new independent source (after ≤ before, or the first source) changes
    nothing: a person restating a claim, or paraphrasing it, does not corroborate it."""
    if after <= before or before < 1:
        return confidence
    c = DEFAULT_SOURCE_CONFIDENCE if confidence is None else confidence
    a = DEFAULT_SOURCE_CONFIDENCE if added is None else added
    for _ in range(after - before):
        c = 1.0 - (1.0 - c) * (1.0 - a)
    return round(c, 6)
