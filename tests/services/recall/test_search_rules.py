"""The pure rules of search, table-driven: fusion, Lucene text, named entities, kinds, clearance."""

from __future__ import annotations

import pytest

from credo.schema.search import can_see, visible_levels
from credo.services.recall.search_rules import (LEXICAL_ENTITIES, LEXICAL_SUMMARIES, RRF_K, fuse, lucene, named, path_of,
                                         predicate_words, split_kinds, words)


@pytest.mark.parametrize(("rankings", "order"), [
    ({}, []),
    ({"lexical": []}, []),
    ({"lexical": [("a", 9.0), ("b", 1.0)]}, ["a", "b"]),
    # found by two paths beats first place on one
    ({"lexical": [("a", 9.0), ("b", 5.0)], "vector": [("b", 0.9), ("c", 0.8)]}, ["b", "a", "c"]),
    # equal fused scores: the better best rank, then more paths, then the key
    ({"lexical": [("a", 1.0)], "vector": [("b", 1.0)]}, ["a", "b"]),
    # a key listed twice by one path keeps its first rank, and the next key takes rank 2
    ({"lexical": [("a", 3.0), ("a", 2.0), ("b", 1.0)]}, ["a", "b"]),
])
def test_fusion_orders_by_reciprocal_rank(rankings, order):
    assert [f.key for f in fuse(rankings)] == order


def test_fusion_scores_are_the_sum_of_reciprocal_ranks_and_keep_each_paths_rank_and_score():
    [b, a] = fuse({"lexical": [("a", 9.0), ("b", 5.0)], "graph": [("b", 2.0)]})
    assert b.score == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert b.paths == {"lexical": (2, 5.0), "graph": (1, 2.0)}
    assert a.paths == {"lexical": (1, 9.0)}


def test_fusion_cuts_at_the_limit():
    assert [f.key for f in fuse({"lexical": [(k, 1.0) for k in "abcdef"]}, limit=2)] == ["a", "b"]


@pytest.mark.parametrize(("text", "expected"), [
    ("Who owns the Acme account?", ["who", "owns", "the", "acme", "account"]),
    ("AND OR NOT", ["and", "or", "not"]),  # lower-cased: never Lucene operators
    ("a a A", ["a"]),
    ("?!", []),
])
def test_words_are_distinct_lower_case(text, expected):
    assert words(text) == expected


def test_predicate_words_join_adjacent_pairs():
    assert predicate_words("owned by Alice") == ["owned", "by", "alice", "owned_by", "ownedby", "by_alice", "byalice"]


@pytest.mark.parametrize(("text", "tenant", "expected"), [
    ("acme", "t1", '+tenant:"t1" +(statement:(acme))'),
    ("x:b (c)", "t-x", '+tenant:"t x" +(statement:(x OR b OR c))'),
    ("ZQX-4471", 'we"ird', '+tenant:"we ird" +(statement:(zqx OR 4471))'),
    ("?!", "t1", None),
    ("acme", "!!", "statement:(acme)"),  # no word in the tenant: the exact tenant filter still guards
])
def test_the_lucene_query_requires_the_tenant_and_escapes_the_text(text, tenant, expected):
    assert lucene(text, ["statement"], tenant) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("who is responsible for the billing ledger?", '+tenant:"t1" +(statement:(who OR responsible OR billing OR ledger))'),
    ("created A Very Peculiar Practice", '+tenant:"t1" +(statement:(created OR very OR peculiar OR practice))'),
    ("The Who", '+tenant:"t1" +(statement:(the OR who))'),  # only a stop word besides: kept, a name may be one
    ("to be or not to be", '+tenant:"t1" +(statement:(to OR be OR or OR not))'),  # all stop words: all kept
])
def test_the_lucene_query_leaves_out_stop_words_unless_nothing_else_is_left(text, expected):
    # a stop word matches most of a large tenant's texts: Lucene would score them all for little evidence
    assert lucene(text, ["statement"], "t1") == expected


@pytest.mark.parametrize(("query", "norm", "expected"), [
    ("who owns the acme account?", "acme account", True),
    ("who owns the Acme Account", "acme account", True),
    ("acme accounts", "acme account", False),  # whole words only
    ("anything", None, False),
    ("x", "", False),
])
def test_an_entity_is_named_by_its_whole_words(query, norm, expected):
    assert named(query, norm) is expected


@pytest.mark.parametrize(("kinds", "hits", "memory"), [
    (None, {"fact", "entity", "summary"}, None),
    ("entity", {"entity"}, None),
    (["procedural"], {"fact"}, ["procedural"]),
    (["Summary", "semantic"], {"fact", "summary"}, ["semantic"]),
])
def test_kinds_split_into_hit_kinds_and_memory_kinds(kinds, hits, memory):
    assert split_kinds(kinds) == (frozenset(hits), memory)


@pytest.mark.parametrize("kinds", [["gadget"], []])
def test_an_unknown_or_empty_kind_is_refused(kinds):
    with pytest.raises(ValueError):
        split_kinds(kinds)


@pytest.mark.parametrize(("clearance", "sensitivity", "seen"), [
    ("public", "public", True), ("public", None, False), ("public", "internal", False),
    ("internal", None, True), ("internal", "Confidential", False), ("confidential", "confidential", True),
    ("secret", "secret", True), ("secret", "top-secret", False), ("all", "top-secret", True), ("all", None, True),
])
def test_clearance_sees_its_level_and_below(clearance, sensitivity, seen):
    assert can_see(clearance, sensitivity) is seen


def test_all_sees_every_label():
    assert visible_levels("all") is None and visible_levels("internal") == ["public", "internal"]


@pytest.mark.parametrize("cut, visible, need, expected", [
    (50, 0, 10, 400),      # nothing visible: eight times
    (50, 5, 10, 200),      # a tenth visible: twice what that density needs
    (50, 7, 10, 143),      # rounded up
    (50, 9, 10, 112),      # nearly enough: just over twice
    (50, 19, 10, 100),     # at least twice (a need the cut had met on another path)
    (50, 1, 10, 400),      # sparse: at most eight times
    (6400, 0, 10, 12_800),  # never past the cap
])
def test_a_short_paths_next_cut_follows_the_density_of_visible_candidates(cut, visible, need, expected):
    from credo.graph.recall.search import wider

    assert wider(cut, visible, need) == expected


@pytest.mark.parametrize("ranking, path", [("lexical", "lexical"), (LEXICAL_ENTITIES, "lexical"),
                                           (LEXICAL_SUMMARIES, "lexical"), ("vector", "vector"), ("graph", "graph")])
def test_each_ranking_belongs_to_its_path(ranking, path):
    assert path_of(ranking) == path


def test_two_indexes_first_items_share_the_first_rank_whatever_their_scores():
    fused = fuse({"lexical": [("fact:1", 0.4)], LEXICAL_ENTITIES: [("entity:1", 9.0)]})
    assert {f.key: f.paths for f in fused} == {"fact:1": {"lexical": (1, 0.4)}, "entity:1": {LEXICAL_ENTITIES: (1, 9.0)}}
    assert fused[0].score == fused[1].score == 1.0 / (RRF_K + 1)
