"""`credo.Client` over HTTP passes the same timelines as the embedded Store: same methods, models and errors."""

from __future__ import annotations

import pytest

from credo.client import Client
from credo.schema.errors import ConflictError, EvidenceRefused, InvalidInput, NotFound
from credo.schema.facts import Fact
from credo.store import Store
from tests.api.conftest import new_tenant


@pytest.fixture(params=["store", "client"])
def handle(request, neo4j_db):
    """The same tenant-bound API, embedded (Store) or remote (credo.Client against a live server)."""
    if request.param == "store":
        yield Store(neo4j_db, tenant=new_tenant(neo4j_db).name, embedder=None, _owns_db=False)
        return
    server = request.getfixturevalue("live_server")
    with Client(server.url, new_tenant(neo4j_db).key) as client:
        yield client


def test_succession_keeps_both_owners_in_history(handle):
    alice = handle.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    bob = handle.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01")
    assert isinstance(bob, Fact) and bob.value == "Bob"
    assert [f.value for f in handle.facts("Acme account", "owned_by", valid_at="2024-03-01")] == ["Alice"]
    assert [f.value for f in handle.facts("Acme account", "owned_by", valid_at="2024-07-01")] == ["Bob"]
    then = handle.facts("Acme account", "owned_by", valid_at="2024-07-01", known_at=alice.known_from)
    assert [f.value for f in then] == ["Alice"]
    assert [r.fact.value for r in handle.relations("Acme account", valid_at="2024-07-01")] == ["Bob"]
    assert [f.value for f in handle.holders("owned_by", "Bob", valid_at="2024-07-01")] == ["Bob"]


def test_a_conflicting_write_is_kept_and_resolved_explicitly(handle):
    handle.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    bob = handle.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
    assert bob.state == "conflicted"
    [conflict] = handle.conflicts()
    resolved = handle.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-08-01")
    assert resolved.value == "Bob" and handle.conflicts() == []
    with pytest.raises(ConflictError):
        handle.resolve_conflict(conflict.conflict_id, decision="reject")


def test_a_premise_change_returns_the_cascade_report(handle):
    premise = handle.add_fact("API v1 clients", "read", "column X", object_is_entity=False)
    rule = handle.add_fact("column X", "must_be", "kept", object_is_entity=False, depends_on=[premise.fact_id])
    retracted = handle.retract_fact(premise.fact_id, reason="v1 retired")
    report = next(f.cascade for f in retracted if f.cascade is not None)
    assert rule.fact_id in report.flagged_ids
    assert [s.id for s in handle.stale()] == [rule.fact_id]


def test_the_write_gate_and_why_over_both(handle):
    handle.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "ann",
                                   "text": "The nightly export runs at 02:00 UTC.", "at": "2025-03-01T09:00:00Z"}])
    fact = handle.remember("s1", "nightly export runs at 02:00 UTC", "The nightly export runs at 02:00 UTC")
    assert fact.evidence == "stated"
    assert handle.why(fact.fact_id).sources[0].quote == "nightly export runs at 02:00 UTC"
    with pytest.raises(EvidenceRefused) as err:
        handle.remember("s1", "the export runs every night at two", "paraphrase")
    assert err.value.field == "quote"


def test_errors_are_the_same_classes_naming_the_same_field(handle):
    with pytest.raises(NotFound):
        handle.history("f_doesnotexist")
    with pytest.raises(InvalidInput) as err:
        handle.add_fact("Ivy", "role", "lead", valid_from="2025-02-01", valid_to="2025-01-01")
    assert err.value.field == "valid_to"


def test_long_lists_come_back_whole_across_pages(handle):
    handle.add_facts([{"subject": f"n{i}", "predicate": "note", "object": f"v{i}", "object_is_entity": False,
                       "valid_from": "2024-01-01"} for i in range(230)])
    assert len(handle.facts(predicate="note")) == 230


def test_as_of_reads_answer_dated_and_undated_apart_on_both(handle):
    handle.add_fact("orders-db", "schema_version", "v7", object_is_entity=False)
    handle.add_fact("orders-db", "owner", "Dana", valid_from="2024-01-01")
    found = handle.facts("orders-db", valid_at="2024-06-01")
    assert [f.value for f in found.dated] == ["Dana"] and [f.value for f in found.undated] == ["v7"]
    assert found.unreadable == []
    assert [r.other for r in handle.relations("orders-db", valid_at="2024-06-01").dated] == ["Dana"]


def test_maintain_answers_its_cascade_report_on_both(handle):
    report = handle.maintain()
    assert report.facts == [] and report.summaries == []
