"""Reads that cost no round trip for what is not there: a context package reads verdicts with its sources (no query
of their own), and search's weak mark reads sources only for a relation the search query says has one linked."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.services.verify.rules import RuleVerifier
from credo.store import Store

# these tests exercise the reads, not consent (conftest.py `semantic_logged`)
pytestmark = pytest.mark.usefixtures("semantic_logged")

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
EDGE = "Alice reports to Bob"
PACKAGE = ["read_entity", "read_facts_by_subject", "read_facts_by_object", "read_context_closed",
           "read_support_known_at", "read_context_sources"]


def a_relation(store, clock, *, tool: bool = False):
    """Alice reports to Bob, with no source linked, or with one tool call's result as its only source (weak)."""
    clock.at(T0)
    fact = store.add_fact("Alice", "reports_to", "Bob", valid_from="2025-01-01", statement=EDGE)
    if tool:
        store.cite(fact.fact_id, store.add_source("tool_result", "org-chart API: alice.manager = bob").source_id)
    clock.at(T0 + timedelta(hours=1))
    return fact


def test_a_package_with_no_verdict_runs_no_query_for_verdicts(store, clock, queries_run):
    # given a relation never verified (no verifier configured)
    a_relation(store, clock)
    queries_run.clear()
    # when its entity's package is read
    package = store.context("Alice")
    # then it says "not verified", and its verdicts came with its sources: no query of their own
    assert [(i.statement, i.verification) for i in package.current] == [(EDGE, "not verified")]
    assert queries_run == PACKAGE


def test_a_verdict_is_shown_in_the_package_read_with_its_sources_and_only_as_of_when_it_was_recorded(
        store, clock, queries_run):
    # given a statement judged by the rules verifier an hour after it was remembered
    clock.at(T0)
    store.ingest_messages("w", [{"index": 0, "role": "user", "origin": "human_input", "author": "alice",
                                 "text": "Don't migrate the orders table while API v1 reads it.", "at": T0}])
    fact = store.turn("w").remember("migrate the orders table", "Never migrate the orders table",
                                    subject="orders table", predicate="migration_policy", object="never migrate")
    before = clock.now
    clock.at(T0 + timedelta(hours=1))
    judged = Store(store._db, tenant=store.tenant, embedder=None, _clock=store._ctx.clock, _owns_db=False,
                   verifier=RuleVerifier(), actor="carol")
    verdict = judged.verify(fact.fact_id).verified_by
    queries_run.clear()
    # when the package is read now and as known before the verdict
    now = store.context("orders table")
    earlier = store.context("orders table", known_at=before)
    # then now it carries the verdict, before it did not, and no query ran for verdicts alone
    item = next(i for i in now.current + now.open if i.fact.fact_id == fact.fact_id)
    assert item.verified_by == verdict and item.verification.startswith("overreach")
    old = next(i for i in earlier.current + earlier.open if i.fact.fact_id == fact.fact_id)
    assert (old.verification, old.verified_by) == ("not verified", None)
    assert "read_verifications" not in queries_run


def test_a_search_hit_on_a_relation_with_no_source_is_one_query_for_facts_and_no_source_read(
        store, clock, queries_run):
    # given a relation with no source linked (it may have at most one independent source, but cannot be weak)
    a_relation(store, clock)
    queries_run.clear()
    # when a search finds it
    found = store.search("Alice reports", kinds=["fact"])
    # then the hit is not weak, and the search read entities and facts only: no read of sources after it
    assert [(h.text, h.weak) for h in found.hits] == [(EDGE, False)]
    assert queries_run == ["search_lookups", "search_facts"]


def test_a_search_hit_on_a_relation_from_one_tool_call_is_still_marked_weak(store, clock, queries_run):
    # given a relation whose only source is one tool call's result
    a_relation(store, clock, tool=True)
    queries_run.clear()
    # when a search finds it
    found = store.search("Alice reports", kinds=["fact"])
    # then it is marked weak, its sources read because the search query said one is linked
    assert [(h.text, h.weak) for h in found.hits] == [(EDGE, True)]
    assert queries_run == ["search_lookups", "search_facts", "read_evidence_sources"]


def test_a_search_naming_no_entity_reads_entities_summaries_and_full_text_in_one_query(store, clock, queries_run):
    # given a relation between two named entities
    a_relation(store, clock)
    queries_run.clear()
    # when a search finds it by its words without naming either entity
    found = store.search("who reports to whom", kinds=["fact"])
    # then entities, summaries and the lexical path were one query, and the graph path (it needs a named entity)
    # was not asked
    assert [h.text for h in found.hits] == [EDGE]
    assert queries_run == ["search_lookups"]
