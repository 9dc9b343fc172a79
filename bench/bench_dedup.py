"""Dedup at write: the join decision on pairs of statements of one (subject, predicate, scope), before and after.

`.venv/bin/python bench/bench_dedup.py` (offline all-MiniLM-L6-v2, no Neo4j). The pairs are in
`tests/services/facts/paraphrase_pairs.json`: the hand-written 40 paraphrases and 40 different values, and the
pairs from real text (each with its source). Prints the similarity distributions and the threshold table of the
rule before issue 27 (similarity >= 0.80 and the substitution guard), then for each set the joins and wrong merges
of the old rule and of the current one (services/facts/paraphrase_rules.py, through dedup_rules.near_duplicate),
the pairs the current rule still misses, and what the decision costs per write (the rule alone, and the frames'
embedding a both-sided pair needs).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

PAIRS = Path(__file__).resolve().parent.parent / "tests" / "services" / "facts" / "paraphrase_pairs.json"


def load(name: str) -> list[dict]:
    """One set of pairs from the data file (`handwritten` or `real`)."""
    return json.loads(PAIRS.read_text(encoding="utf-8"))[name]


PARAPHRASES: list[tuple[str, str]] = [(p["a"], p["b"]) for p in load("handwritten") if p["same"]]
CONTRASTS: list[tuple[str, str]] = [(p["a"], p["b"]) for p in load("handwritten") if not p["same"]]


def similarities(pairs: list[tuple[str, str]]) -> list[float]:
    """Cosine similarity of each pair under the shipped embedder (unit vectors: the dot product)."""
    from credo.services.facts.dedup_rules import cosine
    from credo.services.adapters.embeddings import default_embedder

    embedder = default_embedder()
    left = embedder.embed([a for a, _ in pairs])
    right = embedder.embed([b for _, b in pairs])
    return [cosine(a, b) for a, b in zip(left, right)]


def quantiles(values: list[float]) -> str:
    """min / p10 / median / p90 / max of a distribution."""
    ordered = sorted(values)
    q = statistics.quantiles(ordered, n=10)
    return f"min {ordered[0]:.3f} · p10 {q[0]:.3f} · median {statistics.median(ordered):.3f} · p90 {q[-1]:.3f} · " \
           f"max {ordered[-1]:.3f}"


def merged(scores: list[float], pairs: list[tuple[str, str]], threshold: float) -> int:
    """How many pairs the dedup rule joins at `threshold` (similarity and the substitution guard)."""
    from credo.services.facts.dedup_rules import substitution

    return sum(s >= threshold and not substitution(a, b) for s, (a, b) in zip(scores, pairs))


def main() -> None:
    same, different = similarities(PARAPHRASES), similarities(CONTRASTS)
    print(f"paraphrases ({len(same)}): {quantiles(same)}")
    print(f"different values ({len(different)}): {quantiles(different)}")
    print("threshold | similarity alone: paraphrases / different values merged | with the substitution guard")
    for t in (0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95):
        print(f"{t:.2f} | {sum(s >= t for s in same)}/{len(same)} / {sum(d >= t for d in different)}/{len(different)}"
              f" | {merged(same, PARAPHRASES, t)}/{len(same)} / {merged(different, CONTRASTS, t)}/{len(different)}")
    worst = sorted(zip(different, CONTRASTS), reverse=True)[:5]
    print("most similar different values:")
    for score, (a, b) in worst:
        print(f"  {score:.3f}  {a!r} vs {b!r}")
    for name in ("handwritten", "real"):
        compare(name, load(name))


def decide(a: str, b: str, va: list[float], vb: list[float], embedder) -> tuple[bool, int]:
    """The current rule on one pair, as a write runs it (the frames embedded when the pair needs them); and how
    many frames it embedded."""
    from credo.services.facts.dedup_rules import Candidate, frames_needed, near_duplicate

    pool = [Candidate("v", a, (), va)]
    needed = frames_needed(b, vb, pool)
    vectors = dict(zip(needed, embedder.embed(needed))) if needed else {}
    return near_duplicate(b, vb, pool, vectors=vectors) is not None, len(needed)


def compare(name: str, pairs: list[dict]) -> None:
    """Joins and wrong merges of the old and the current rule on one set, the misses, and the cost per decision."""
    from credo.services.adapters.embeddings import default_embedder
    from credo.services.facts.dedup_rules import cosine, substitution

    embedder = default_embedder()
    left, right = embedder.embed([p["a"] for p in pairs]), embedder.embed([p["b"] for p in pairs])
    same = [p["same"] for p in pairs]
    old = [cosine(va, vb) >= 0.80 and not substitution(p["a"], p["b"]) for p, va, vb in zip(pairs, left, right)]
    decide(pairs[0]["a"], pairs[0]["b"], left[0], right[0], embedder)  # warm: the first call compiles nothing twice
    started = time.perf_counter()
    decided = [decide(p["a"], p["b"], va, vb, embedder) for p, va, vb in zip(pairs, left, right)]
    elapsed = time.perf_counter() - started
    new = [d for d, _ in decided]
    framed = sum(1 for _, n in decided if n)
    from credo.services.facts.dedup_rules import Candidate, near_duplicate
    from credo.services.facts.paraphrase_rules import words

    words.cache_clear()  # each statement parsed once, as a write parses it
    rule_only = time.perf_counter()
    for p, va, vb in zip(pairs, left, right):
        near_duplicate(p["b"], vb, [Candidate("v", p["a"], (), va)], vectors={})
    rule_only = time.perf_counter() - rule_only
    positives, negatives = sum(same), len(same) - sum(same)
    for label, joined in (("before (0.80 + substitution)", old), ("now (paraphrase_rules)", new)):
        hit = sum(j and s for j, s in zip(joined, same))
        wrong = sum(j and not s for j, s in zip(joined, same))
        print(f"{name} {label}: {hit}/{positives} paraphrases joined ({hit / positives:.1%}), "
              f"{wrong}/{negatives} wrong merges")
    print(f"{name} cost per decision: {elapsed / len(pairs) * 1e3:.2f} ms with the frames' embedding "
          f"({framed}/{len(pairs)} pairs needed frames), the rule alone {rule_only / len(pairs) * 1e6:.0f} µs")
    for p, j in zip(pairs, new):
        if j != p["same"]:
            print(f"  {'missed' if p['same'] else 'WRONG MERGE'}: {p['a']!r} / {p['b']!r}")


if __name__ == "__main__":
    main()
