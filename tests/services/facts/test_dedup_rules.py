"""Dedup at write, the pure rules: near-duplicate matching, the substitution guard, merge and corroboration."""

from __future__ import annotations

import pytest

from credo.services.facts.dedup_rules import (
    DEFAULT_SOURCE_CONFIDENCE, Candidate, corroborated, dedupable, independence_key, independent_count,
    near_duplicate, normalised, restated, substitution,
)


@pytest.mark.parametrize("a, b, same", [
    ("Americano, no sugar", "americano   no sugar!", True),
    ("Ａmericano, no sugar", "americano no sugar", True),  # NFKC: a full-width letter is the letter
    ("Americano, no sugar", "Americano, sugar", False),
    ("", "", True),
])
def test_normalised_statements_compare_case_space_and_punctuation_blind(a, b, same):
    assert (normalised(a) == normalised(b)) is same


@pytest.mark.parametrize("a, b, swapped", [
    ("Call me Kate, not Katherine", "Call me Katherine, not Kate", True),  # same words, roles swapped
    ("I prefer email over phone calls", "I prefer phone calls over email", True),
    ("Maria takes her coffee as an Americano with no sugar", "An Americano, no sugar, is how Maria takes her coffee",
     False),  # same words, one block moved to the front: a paraphrase
    ("Bob prefers tea with milk", "Bob prefers tea with lemon", True),  # one value replaced in the same wording
    ("I am vegetarian", "I am vegan", True),  # a short claim whose only content word changes
    ("I'm allergic to peanuts", "I have a peanut allergy", False),  # restructured: a paraphrase
    ("I prefer dark mode in every editor", "Dark mode is what I like in my editors", False),
    ("Americano, no sugar", "Americano, no sugar", False),  # identical
])
def test_substitution_sees_a_value_swapped_in_the_same_wording(a, b, swapped):
    assert substitution(a, b) is swapped


def _c(vid, statement, embedding=None, aliases=()):
    return Candidate(vid, statement, tuple(aliases), embedding)


@pytest.mark.parametrize("statement, vector, pool, expected, how", [
    # no embedder: only the exact normalised statement or an alias joins
    ("americano, no sugar", None, [_c("v1", "Americano no sugar")], "v1", "exact"),
    ("black coffee", None, [_c("v1", "Americano", aliases=["Black coffee!"])], "v1", "exact"),
    ("An unsweetened Americano", None, [_c("v1", "Americano, no sugar", [1.0, 0.0])], None, None),
    # an embedder: the most similar candidate at or over the threshold
    ("An Americano with no sugar", [1.0, 0.0], [_c("v1", "Americano, no sugar", [0.9, 0.1]),
                                                _c("v2", "Tea please", [0.0, 1.0])], "v1", "similar"),
    ("An Americano with no sugar", [1.0, 0.0], [_c("v1", "Americano, no sugar", [0.5, 0.866])], None, None),  # 0.5
    ("An Americano with no sugar", [1.0, 0.0], [_c("v1", "Americano with no sugar at all", [0.6, 0.8])], "v1",
     "similar"),  # exactly 0.60
    # each side has words the other lacks: only the frames' vectors could say it is no swapped value
    ("An unsweetened Americano", [1.0, 0.0], [_c("v1", "Americano, no sugar", [0.9, 0.1])], None, None),
    # similar by vector but a value swap in the same wording: kept apart (the conflict rule must see it)
    ("Call me Katherine, not Kate", [1.0, 0.0], [_c("v1", "Call me Kate, not Katherine", [1.0, 0.0])], None, None),
    # the best candidate is a swap, the next one a true paraphrase: the paraphrase is joined
    ("Bob likes tea with a splash of milk", [1.0, 0.0], [_c("v1", "Bob likes tea with a splash of lemon", [1.0, 0.0]),
                                                         _c("v2", "Bob prefers tea with milk", [0.9, 0.2])], "v2",
     "similar"),
    ("anything", [1.0, 0.0], [], None, None),  # nothing established
    ("anything", [1.0, 0.0], [_c("v1", "old fact without a vector")], None, None),
])
def test_near_duplicate_picks_the_claim_a_statement_restates(statement, vector, pool, expected, how):
    found = near_duplicate(statement, vector, pool)
    assert (found.candidate.version_id if found else None) == expected
    assert (found.how if found else None) == how


@pytest.mark.parametrize("kind, object_type, merged", [
    ("semantic", "string", True), ("semantic", "entity", False), ("semantic", "number", False),
    ("relational", "string", False), ("episodic", "string", False), ("procedural", "string", False),
])
def test_only_semantic_text_claims_are_merged_by_wording(kind, object_type, merged):
    assert dedupable(kind, object_type) is merged


@pytest.mark.parametrize("held, offered, vouched, own_voice, expected", [
    # an agent's or a tool's write (no quote through the gate) never raises evidence, nor lowers it
    (("stated", "hypothesis"), ("unknown", "confirmed"), False, False, ("stated", "hypothesis", False)),
    (("stated", "confirmed"), ("unknown", "confirmed"), False, False, ("stated", "confirmed", False)),
    (("unknown", "confirmed"), ("unknown", "hypothesis"), False, False, ("unknown", "confirmed", False)),
    (("accepted", "confirmed"), ("unknown", "confirmed"), False, False, ("accepted", "confirmed", False)),
    # a human's plain restatement: the strongest evidence of the two, confirmed
    (("stated", "hypothesis"), ("stated", "confirmed"), True, False, ("stated", "confirmed", False)),
    (("stated", "hypothesis"), ("stated", "confirmed"), True, True, ("stated", "confirmed", False)),
    (("unknown", "confirmed"), ("stated", "confirmed"), True, False, ("stated", "confirmed", False)),
    (("accepted", "confirmed"), ("stated", "confirmed"), True, False, ("stated", "confirmed", False)),
    (("stated", "confirmed"), ("stated", "confirmed"), True, False, ("stated", "confirmed", False)),
    # a hedged restatement never downgrades what a person stated plainly; from that person it opens the question
    (("stated", "confirmed"), ("stated", "hypothesis"), True, False, ("stated", "confirmed", False)),
    (("stated", "confirmed"), ("stated", "hypothesis"), True, True, ("stated", "confirmed", True)),
    (("accepted", "confirmed"), ("stated", "hypothesis"), True, False, ("stated", "confirmed", False)),
    # ... but the first human voice of an unvouched claim is what it rests on: hedged, a hypothesis
    (("unknown", "confirmed"), ("stated", "hypothesis"), True, False, ("stated", "hypothesis", False)),
    (("stated", "hypothesis"), ("stated", "hypothesis"), True, True, ("stated", "hypothesis", False)),
])
def test_a_restatement_keeps_the_strongest_evidence_and_only_a_human_raises_it(held, offered, vouched, own_voice,
                                                                                expected):
    got = restated(held[0], held[1], offered=offered[0], offered_epistemic=offered[1], vouched=vouched,
                   own_voice=own_voice)
    assert (got.evidence.value, got.epistemic.value, got.opens) == expected


@pytest.mark.parametrize("sources, count", [
    ([], 0),
    ([{"kind": "message", "author": "maria", "source_id": "s1"},
      {"kind": "message", "author": "Maria", "source_id": "s2"}], 1),  # one person, twice
    ([{"kind": "message", "author": "maria", "source_id": "s1"},
      {"kind": "message", "author": "bob", "source_id": "s2"}], 2),
    ([{"kind": "document", "uri": "https://w/x", "source_id": "d1"},
      {"kind": "document", "uri": "https://w/x", "source_id": "d2"},
      {"kind": "document", "title": "Runbook", "source_id": "d3"}], 2),  # one address counts once
    ([{"kind": "tool_result", "source_id": "t1"}, {"kind": "tool_result", "source_id": "t2"}], 2),
    ([{"kind": "message", "author": None, "source_id": "s1"}, {"kind": "message", "source_id": "s2"}], 2),
])
def test_independent_sources_count_each_person_or_document_once(sources, count):
    assert independent_count(sources) == count
    assert independent_count(sources + sources) == count


@pytest.mark.parametrize("confidence, added, before, after, expected", [
    (None, None, 1, 2, 1 - (1 - DEFAULT_SOURCE_CONFIDENCE) ** 2),  # 0.84
    (0.5, 0.5, 1, 2, 0.75),
    (0.5, None, 1, 3, 1 - 0.5 * 0.4 * 0.4),
    (0.7, 0.9, 1, 1, 0.7),  # the same person again: no corroboration
    (None, 0.9, 0, 1, None),  # the first source is not a corroboration
    (0.7, 0.9, 2, 2, 0.7),
    (1.0, 0.5, 1, 2, 1.0),
    (0.0, 0.0, 1, 2, 0.0),
])
def test_only_a_new_independent_source_raises_confidence_by_noisy_or(confidence, added, before, after, expected):
    got = corroborated(confidence, added, before=before, after=after)
    assert got == (None if expected is None else pytest.approx(expected))


def test_independence_key_names_the_voice():
    assert independence_key({"kind": "message", "author": " Maria "}) == ("author", "maria")
