"""Search's vector floor: cosine similarity of questions and the facts that answer them vs facts that do not.

`.venv/bin/python bench/bench_similarity.py` (offline all-MiniLM-L6-v2, no Neo4j). Related pairs: each question of
the ablation cases (bench/ablation_cases.py) with the statement that answers it (plain, semantic — no content word
shared — and conflict cases), and one-word questions naming what a fact is about. Unrelated pairs: every question
with every other case's statements, and one-word, two-word and longer queries about nothing the facts mention (the
issue's "a one-word query returns 5 unrelated facts"), each against every statement. Prints the distributions (raw
cosine; Neo4j's vector functions answer (1 + cosine) / 2, shown beside) and, per query length and candidate floor,
how many related pairs it keeps and how many unrelated queries it still answers with a vector hit; the chosen
floors are `credo.services.recall.search_rules.VECTOR_FLOORS` / `VECTOR_FLOOR`.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ablation_cases import CASES  # noqa: E402

from credo.services.adapters.embeddings import default_embedder  # noqa: E402
from credo.services.recall.search_rules import VECTOR_FLOOR, VECTOR_FLOORS  # noqa: E402

# one word naming what a fact is about (its object or subject): each must keep its fact above the floor
NAMED = [("Kubernetes", "The ingest pipeline runs on Kubernetes"), ("Grafana", "The Atlas dashboard uses Grafana"),
         ("Kotlin", "The Zephyr app is written in Kotlin"), ("peanuts", "Tom is allergic to peanuts"),
         ("Opsgenie", "The on-call engineer is paged through Opsgenie"),
         ("FileVault", "Laptops are encrypted with FileVault"), ("Americano", "Maria drinks an Americano, no sugar"),
         ("train", "Priya commutes to the office by train"), ("Japanese", "Hana Sato speaks Japanese"),
         ("passwords", "Passwords rotate every ninety days"),
         ("backups", "Nightly backups are written to the Frankfurt bucket"),
         ("invoices", "Invoices are sent to customers as PDF files"),
         ("license", "The Cobalt repo is licensed under Apache 2.0"),
         ("cafeteria", "The cafeteria serves vegetarian food on Mondays"), ("Accra", "Kofi Mensah is based in Accra")]
# two words naming (or paraphrasing) what a fact is about
NAMED_TWO = [("Kofi Mensah", "Kofi Mensah is based in Accra"), ("ingest pipeline", "The ingest pipeline runs on "
                                                                                    "Kubernetes"),
             ("Atlas dashboard", "The Atlas dashboard uses Grafana"),
             ("payroll export", "The payroll export is scheduled for Friday 18:00"),
             ("search cluster", "The search cluster is hosted in eu-west-1"),
             ("Orion contract", "Lena Fischer signed the Orion contract"),
             ("staging database", "The staging database is refreshed every night"),
             ("release notes", "Release notes are published on the first of every month"),
             ("customer records", "Customer records must stay inside the European Union"),
             ("on-call paging", "The on-call engineer is paged through Opsgenie"),
             ("coffee order", "Maria drinks an Americano, no sugar"), ("food allergy", "Tom is allergic to peanuts"),
             ("laptop encryption", "Laptops are encrypted with FileVault"),
             ("deploy day", "Deployments to production only happen on Tuesdays")]
# queries about nothing any case states: one word, two words, a question
UNRELATED_WORDS = ["banana", "weather", "guitar", "zebra", "hello", "test", "pizza", "football", "tomorrow",
                   "purple", "volcano", "symphony", "elephant", "umbrella", "chess", "poetry", "galaxy", "cheese",
                   "bicycle", "ocean", "thunder", "marathon", "origami", "saxophone", "tulip", "asdf", "foo", "xyz",
                   "q", "lorem"]
UNRELATED_TWO = ["banana bread", "weather forecast", "guitar lessons", "zebra stripes", "pizza toppings",
                 "football match", "purple paint", "volcano eruption", "chess opening", "poetry reading",
                 "galaxy map", "cheese platter", "bicycle repair", "ocean waves", "thunder storm",
                 "marathon training", "origami crane", "tulip garden", "summer holiday", "birthday cake"]
UNRELATED_QUESTIONS = ["how tall is mount everest", "best pizza in naples", "recipe for banana bread",
                       "rules of chess", "who won the football match", "when does the ocean tide rise",
                       "how to fold an origami crane", "history of the saxophone", "is it going to rain",
                       "what is the capital of peru", "my favourite colour is purple", "the zebra at the zoo"]


def statements() -> dict[str, list[str]]:
    """Each case's statements (what its facts say), by case name."""
    out: dict[str, list[str]] = {}
    for case in CASES:
        said = [op["statement"] for op in case.setup if op["op"] in ("add", "succeed") and op.get("statement")]
        said += [op["content"] for op in case.setup if op["op"] == "remember"]
        out[case.name] = said
    return out


def cosines(vectors: dict[str, list[float]], pairs: list[tuple[str, str]]) -> list[float]:
    return [sum(x * y for x, y in zip(vectors[a], vectors[b])) for a, b in pairs]


def describe(name: str, values: list[float]) -> str:
    q = statistics.quantiles(values, n=10) if len(values) > 1 else values * 9
    return (f"| {name} | {len(values)} | {min(values):.3f} | {q[0]:.3f} | {statistics.median(values):.3f} | "
            f"{q[-1]:.3f} | {max(values):.3f} | {(1 + min(values)) / 2:.3f}–{(1 + max(values)) / 2:.3f} |")


def main() -> None:
    said = statements()
    related = [(c.query, s) for c in CASES if c.category in ("plain", "semantic", "conflict") for s in said[c.name]]
    semantic = [(c.query, s) for c in CASES if c.category == "semantic" for s in said[c.name]]
    every = sorted({s for ss in said.values() for s in ss})
    unrelated_q = [(c.query, s) for c in CASES for other, ss in said.items() if other != c.name for s in ss]
    texts = sorted({t for pair in related + unrelated_q + NAMED + NAMED_TWO for t in pair} | set(every)
                   | set(UNRELATED_WORDS) | set(UNRELATED_TWO) | set(UNRELATED_QUESTIONS))
    model = default_embedder()
    vectors = dict(zip(texts, model.embed(texts)))

    def best(query: str) -> float:
        return max(cosines(vectors, [(query, s) for s in every]))

    best_other = [max(cosines(vectors, [(c.query, s) for other, ss in said.items() if other != c.name
                                        for s in ss])) for c in CASES]
    print(f"{len(every)} statements, {len(CASES)} questions\n")
    print("| pairs (raw cosine) | n | min | p10 | median | p90 | max | as Neo4j scores it |")
    print("|---|---|---|---|---|---|---|---|")
    rows = [("question → its answer (plain, semantic, conflict)", cosines(vectors, related)),
            ("question → its answer, semantic only (no shared word)", cosines(vectors, semantic)),
            ("question → best other case's statement", best_other),
            ("question → another case's statement (all)", cosines(vectors, unrelated_q)),
            ("one word naming the fact → the fact", cosines(vectors, NAMED)),
            ("unrelated word → its best statement", [best(w) for w in UNRELATED_WORDS]),
            ("unrelated word → any statement", cosines(vectors, [(w, s) for w in UNRELATED_WORDS for s in every])),
            ("two words naming the fact → the fact", cosines(vectors, NAMED_TWO)),
            ("two unrelated words → their best statement", [best(w) for w in UNRELATED_TWO]),
            ("unrelated question → its best statement", [best(q) for q in UNRELATED_QUESTIONS])]
    for name, values in rows:
        print(describe(name, values))
    print("\n| query | floor | related kept | unrelated queries left with a vector hit |")
    print("|---|---|---|---|")
    classes = [("one word", 1, NAMED, UNRELATED_WORDS), ("two words", 2, NAMED_TWO, UNRELATED_TWO),
               ("a question (3+ words)", 3, related, UNRELATED_QUESTIONS)]
    for name, n, pairs, unrelated in classes:
        for floor in (0.10, 0.15, 0.20, 0.25, 0.30, 0.35):
            kept = sum(v >= floor for v in cosines(vectors, pairs))
            hit = sum(best(q) >= floor for q in unrelated)
            mark = " ← chosen" if abs(floor - VECTOR_FLOORS.get(n, VECTOR_FLOOR)) < 1e-9 else ""
            print(f"| {name} | {floor:.2f}{mark} | {kept}/{len(pairs)} | {hit}/{len(unrelated)} |")


if __name__ == "__main__":
    main()
