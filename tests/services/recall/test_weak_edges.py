"""Issue 27 item 1, relational memory (DESIGN §9): a relation asserted once by one tool call is weak and retrieval
says so - in the context package (item and markdown), the relations listing, search hits and why; a second
independent source corroborates it; an edge is made historical, never deleted."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.facts import Fact, ObjectValue
from credo.services.facts.evidence_rules import WEAK_TEXT, weak

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
EDGE = "Alice reports to Bob"


def tool_asserted(store, clock, *, text="org-chart API: alice.manager = bob"):
    """One tool call asserts that Alice reports to Bob: the relation, with that tool result as its only source."""
    clock.at(T0)
    fact = store.add_fact("Alice", "reports_to", "Bob", valid_from="2025-01-01", statement=EDGE)
    store.cite(fact.fact_id, store.add_source("tool_result", text, title="org chart lookup").source_id)
    return fact


def item(package, statement=EDGE):
    return next(i for i in package.current + package.open + package.historical if i.statement == statement)


def relation(store, **point):
    return next(r for r in store.relations("Alice", **point) if r.predicate == "reports_to")


def test_a_relation_from_one_tool_call_is_weak_in_the_package_the_relations_search_and_why(store, clock):
    fact = tool_asserted(store, clock)
    clock.at(T0 + timedelta(hours=1))
    # the context package: current, marked weak, and said so in the markdown
    package = store.context("Alice")
    edge = item(package)
    assert edge.part == "current" and edge.weak
    assert WEAK_TEXT in package.markdown
    # the relations listing, from both ends
    assert relation(store).weak
    assert next(r for r in store.relations("Bob") if r.direction == "in").weak
    # search hits where the relation appears
    hits = [h for h in store.search("Alice reports to Bob").hits if h.kind == "fact" and h.id == fact.fact_id]
    assert hits and hits[0].weak
    # why
    assert store.why(fact.fact_id).weak


@pytest.mark.parametrize("second", ["tool_result", "document", "log"])
def test_a_second_independent_source_corroborates_it(store, clock, second):
    fact = tool_asserted(store, clock)
    clock.at(T0 + timedelta(hours=1))
    store.cite(fact.fact_id, store.add_source(second, "HR record: Alice's manager is Bob", uri=None).source_id)
    clock.at(T0 + timedelta(hours=2))
    assert not item(store.context("Alice")).weak
    assert not relation(store).weak
    assert not store.why(fact.fact_id).weak
    # and as known before the corroboration it was weak: the mark is read from what was believed then
    assert relation(store, known_at=T0 + timedelta(minutes=30)).weak


def test_a_person_s_statement_is_not_a_tool_call(store, clock):
    # given a relation a person stated through the gate (evidence stated), then also seen by a tool
    clock.at(T0)
    store.ingest_messages("s", [{"index": 0, "role": "user", "origin": "human_input", "author": "carol",
                                 "text": "Alice reports to Bob.", "at": T0}])
    fact = store.remember("s", "Alice reports to Bob", EDGE, subject="Alice", predicate="reports_to", object="Bob",
                          valid_from="2025-01-01")
    store.cite(fact.fact_id, store.add_source("tool_result", "alice.manager = bob").source_id)
    clock.at(T0 + timedelta(hours=1))
    assert not relation(store).weak and not item(store.context("Alice")).weak


def test_a_literal_fact_or_a_relation_with_no_source_is_not_weak(store, clock):
    clock.at(T0)
    plain = store.add_fact("Alice", "reports_to", "Bob", valid_from="2025-01-01", statement=EDGE)
    salary = store.add_fact("Alice", "desk", "4B", object_is_entity=False, valid_from="2025-01-01")
    store.cite(salary.fact_id, store.add_source("tool_result", "desk lookup: 4B").source_id)
    clock.at(T0 + timedelta(hours=1))
    package = store.context("Alice")
    assert not item(package).weak and not item(package, salary.statement).weak
    assert plain.fact_id and "weak" not in package.markdown


def test_an_ended_relation_is_historical_never_deleted_and_readable_as_of_before(store, clock):
    fact = tool_asserted(store, clock)
    # when the edge is invalidated: Alice stops reporting to Bob on 2025-06-01
    clock.at(datetime(2025, 6, 2, tzinfo=timezone.utc))
    store.end_fact(fact.fact_id, at="2025-06-01")
    # then the package after the end holds it as history (with its end and its weak mark), not as current
    later = store.context("Alice", valid_at="2025-07-01")
    edge = item(later)
    assert edge.part == "historical" and edge.end_kind == "end" and edge.weak
    assert EDGE not in [i.statement for i in later.current]
    assert "Historical" in later.markdown and EDGE in later.markdown.split("## Historical")[1]
    # and it is no longer a relation after the end, but still one at a valid time before it
    assert not [r for r in store.relations("Alice", valid_at="2025-07-01") if r.predicate == "reports_to"]
    assert relation(store, valid_at="2025-03-01").fact.valid_to == datetime(2025, 6, 1, tzinfo=timezone.utc)
    # and as known before the end, it was open-ended: nothing was deleted, every version is kept
    before = relation(store, valid_at="2025-07-01", known_at=T0 + timedelta(hours=1))
    assert before.fact.valid_to is None and before.weak
    assert len(store.history(fact.fact_id)) == 2


def test_a_retracted_relation_is_history_with_its_reason(store, clock):
    fact = tool_asserted(store, clock)
    clock.at(T0 + timedelta(days=1))
    store.retract_fact(fact.fact_id, reason="the org-chart API returned a stale cache")
    package = store.context("Alice")
    edge = item(package)
    assert edge.part == "historical" and edge.end_kind == "retraction" and "stale cache" in edge.reason
    assert relation(store, known_at=T0 + timedelta(hours=1)).weak  # still readable as it was believed


def _fact(kind="semantic", object_type="entity", evidence="unknown", independent=0):
    return Fact(tenant="t", fact_id="f_1", version_id="v_1", subject="Alice", subject_id="e_1", predicate="p",
                object=ObjectValue(type=object_type, value="Bob", entity_id="e_2" if object_type == "entity" else None),
                object_name="Bob", statement="s", kind=kind, evidence=evidence, independent_sources=independent,
                known_from=T0)


TOOL = {"source_id": "s_1", "kind": "tool_result"}


@pytest.mark.parametrize("fact, sources, expected", [
    (_fact(), [TOOL], True),
    (_fact(), [{"source_id": "s_9", "kind": "message", "origin": "tool_result", "author": "ci"}], True),
    (_fact(), [], False),  # nothing asserted it by a tool call
    (_fact(), [TOOL, {"source_id": "s_2", "kind": "tool_result"}], False),  # two tool calls
    (_fact(), [TOOL, {"source_id": "s_2", "kind": "message", "origin": "human_input", "author": "a"}], False),
    (_fact(), [{"source_id": "s_3", "kind": "observation"}], False),
    (_fact(evidence="stated"), [TOOL], False),  # a person said it
    (_fact(independent=2), [TOOL], False),
    (_fact(object_type="string"), [TOOL], False),  # not a relation
    (_fact(kind="relational", object_type="string"), [TOOL], True),
])
def test_the_weak_rule(fact, sources, expected):
    assert weak(fact, sources) is expected
