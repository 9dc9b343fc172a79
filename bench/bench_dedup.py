"""Dedup threshold: cosine similarity of true paraphrases vs different values of the same (subject, predicate).

`.venv/bin/python bench/bench_dedup.py` (offline all-MiniLM-L6-v2, no Neo4j). Each pair is two statements a
person could make about the same subject and predicate: a paraphrase states the same value in other words, a
contrast states a different value (the conflict rule must see it). Prints both distributions and the error rates
of candidate thresholds; the chosen one is `credo.services.facts.dedup_rules.SIMILARITY_THRESHOLD`.
"""

from __future__ import annotations

import statistics

PARAPHRASES: list[tuple[str, str]] = [
    ("I drink my coffee as an Americano with no sugar", "Americano, no sugar, is how I take my coffee"),
    ("Maria prefers an Americano without sugar", "Maria likes her Americano unsweetened"),
    ("The team prefers PostgreSQL for new services", "For new services the team would rather use Postgres"),
    ("I prefer meetings in the morning", "Mornings are my preferred time for meetings"),
    ("Please send me the weekly report on Mondays", "I want the weekly report every Monday"),
    ("I am vegetarian", "I don't eat meat, I'm a vegetarian"),
    ("I like window seats on flights", "On flights I prefer a seat by the window"),
    ("Use British spelling in all documents", "All documents should use British English spelling"),
    ("I prefer dark mode in every editor", "Dark mode is what I like in my editors"),
    ("Call me Kate, not Katherine", "I go by Kate rather than Katherine"),
    ("I want code reviews within one working day", "Code reviews should be done within a working day"),
    ("Tabs, not spaces, for indentation in our Go code", "Our Go code is indented with tabs rather than spaces"),
    ("Deploys to production only happen on Tuesdays", "We only deploy to production on Tuesdays"),
    ("I'm allergic to peanuts", "I have a peanut allergy"),
    ("I prefer email over phone calls", "Email rather than a phone call, please"),
    ("The on-call rotation changes every Friday at noon", "Every Friday at 12:00 the on-call rotation hands over"),
    ("My working hours are 9 to 5 Central European Time", "I work from nine to five CET"),
    ("I'd like summaries as bullet points", "Give me summaries in bullet-point form"),
    ("Keep answers short, two or three sentences", "I prefer brief answers of two to three sentences"),
    ("I use Vim as my editor", "My editor of choice is Vim"),
    ("Bob prefers tea with milk", "Bob likes his tea with a splash of milk"),
    ("The payments service must be written in Java", "Java is required for the payments service"),
    ("I take the train to work", "I commute to the office by train"),
    ("I prefer aisle seats on long flights", "On long-haul flights I like an aisle seat"),
    ("Our standup is at 9:30 every weekday", "Every weekday the standup starts at half past nine"),
    ("I don't want notifications after 6 pm", "No notifications after six in the evening, please"),
    ("The customer wants invoices in PDF", "Invoices should be sent to the customer as PDF files"),
    ("I prefer metric units", "Use metric units for me"),
    ("Schedule my one-on-ones on Thursdays", "I want my one-on-one meetings on Thursday"),
    ("I like my steak medium rare", "Medium rare is how I want my steak"),
    ("Alice wants to be contacted on Slack, not by email", "Reach Alice through Slack rather than email"),
    ("The staging database is refreshed every night", "Every night the staging database gets refreshed"),
    ("I prefer Python for scripting", "For scripts I would rather use Python"),
    ("I always pay with my company card for travel", "Travel expenses go on my company credit card"),
    ("Something to keep me awake: an Americano, no sugar", "My go-to pick-me-up is an unsweetened Americano"),
    ("I want the dashboard in German", "Show the dashboard in the German language"),
    ("I prefer quiet restaurants", "I like restaurants that are not noisy"),
    ("I run every morning before work", "Each morning I go for a run before work"),
    ("The release notes go out on the first of each month", "Release notes are published on the 1st of every month"),
    ("I prefer hotels close to the office", "I like to stay in a hotel near the office"),
]

CONTRASTS: list[tuple[str, str]] = [
    ("I drink my coffee as an Americano with no sugar", "I drink my coffee as a latte with two sugars"),
    ("Maria prefers an Americano without sugar", "Maria prefers a flat white with sugar"),
    ("The team prefers PostgreSQL for new services", "The team prefers MySQL for new services"),
    ("I prefer meetings in the morning", "I prefer meetings in the afternoon"),
    ("Please send me the weekly report on Mondays", "Please send me the weekly report on Fridays"),
    ("I am vegetarian", "I am vegan"),
    ("I like window seats on flights", "I like aisle seats on flights"),
    ("Use British spelling in all documents", "Use American spelling in all documents"),
    ("I prefer dark mode in every editor", "I prefer light mode in every editor"),
    ("Call me Kate, not Katherine", "Call me Katherine, not Kate"),
    ("I want code reviews within one working day", "I want code reviews within one working week"),
    ("Tabs, not spaces, for indentation in our Go code", "Spaces, not tabs, for indentation in our Go code"),
    ("Deploys to production only happen on Tuesdays", "Deploys to production only happen on Thursdays"),
    ("I'm allergic to peanuts", "I'm allergic to shellfish"),
    ("I prefer email over phone calls", "I prefer phone calls over email"),
    ("The on-call rotation changes every Friday at noon", "The on-call rotation changes every Monday at 9 am"),
    ("My working hours are 9 to 5 Central European Time", "My working hours are 9 to 5 Pacific Time"),
    ("I'd like summaries as bullet points", "I'd like summaries as flowing paragraphs"),
    ("Keep answers short, two or three sentences", "Give long, detailed answers with full explanations"),
    ("I use Vim as my editor", "I use Emacs as my editor"),
    ("Bob prefers tea with milk", "Bob prefers black coffee"),
    ("The payments service must be written in Java", "The payments service must be written in Go"),
    ("I take the train to work", "I drive to work"),
    ("I prefer aisle seats on long flights", "I prefer window seats on long flights"),
    ("Our standup is at 9:30 every weekday", "Our standup is at 11:00 every weekday"),
    ("I don't want notifications after 6 pm", "I want notifications at any time of day"),
    ("The customer wants invoices in PDF", "The customer wants invoices as Excel spreadsheets"),
    ("I prefer metric units", "I prefer imperial units"),
    ("Schedule my one-on-ones on Thursdays", "Schedule my one-on-ones on Mondays"),
    ("I like my steak medium rare", "I like my steak well done"),
    ("Alice wants to be contacted on Slack, not by email", "Alice wants to be contacted by email, not on Slack"),
    ("The staging database is refreshed every night", "The staging database is refreshed once a week"),
    ("I prefer Python for scripting", "I prefer Bash for scripting"),
    ("I always pay with my company card for travel", "I always pay for travel myself and claim it back"),
    ("Something to keep me awake: an Americano, no sugar", "Something to keep me awake: a green tea"),
    ("I want the dashboard in German", "I want the dashboard in French"),
    ("I prefer quiet restaurants", "I prefer lively, busy restaurants"),
    ("I run every morning before work", "I swim every evening after work"),
    ("The release notes go out on the first of each month", "The release notes go out every Friday"),
    ("I prefer hotels close to the office", "I prefer hotels close to the airport"),
]


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


if __name__ == "__main__":
    main()
