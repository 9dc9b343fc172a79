"""The audit ledger: every write appends events hash-chained per tenant; audit() reads them; verify_ledger() names
a changed, inserted or removed event (tampering done here with raw Cypher, as an attacker with database access)."""

from __future__ import annotations

import json
import threading

import pytest

from credo.schema.errors import InvalidInput

class _Q:  # raw Cypher for the tests only: the tampering an attacker with database access could do
    def __init__(self, text: str) -> None:
        self.text = text


def tamper(db, text: str, **params) -> None:
    """Run raw Cypher against the database, outside Credo."""
    db.query(_Q(text), write=True, **params)


CONTENT_KEYS = {"statement", "quote", "text", "content", "excerpt", "hedges", "title"}


def _history(store):
    """Given a small history: a fact, a correction, a retraction and a resolved conflict's write."""
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01",
                           statement="Alice owns the Acme account")
    store.correct_fact(alice.fact_id, object="Alicia", statement="Alicia owns the Acme account")
    other = store.add_fact("Alice", "based_in", "Berlin", valid_from="2024-01-01")
    store.retract_fact(other.fact_id, reason="typed into the wrong record")
    return alice, other


def test_every_write_appends_one_chained_event_and_the_chain_verifies(store):
    alice, other = _history(store)
    events = store.audit().items
    assert [e.operation for e in events] == ["add_facts", "correct_fact", "add_facts", "retract_fact"]
    assert [e.seq for e in events] == [1, 2, 3, 4]
    assert events[0].prev_hash == "" and all(e.prev_hash == p.hash for p, e in zip(events, events[1:]))
    retraction = events[-1]
    assert retraction.reason == "typed into the wrong record" and retraction.actor == store.principal.actor
    assert retraction.actor.startswith("local:") and retraction.on_behalf_of is None
    assert other.fact_id in retraction.ids
    report = store.verify_ledger()
    assert report.ok and report.events == 4 and report.problems == []


def test_audit_filters_by_operation_id_actor_and_time_and_pages_with_a_cursor(store, clock):
    clock.at("2025-02-01T00:00:00Z")
    alice, other = _history(store)
    clock.at("2025-03-01T00:00:00Z")
    store.end_fact(alice.fact_id, at="2025-01-01")
    def ops(**filters):
        return [e.operation for e in store.audit(**filters).items]

    assert ops(operation="retract_fact") == ["retract_fact"]
    assert ops(id=alice.fact_id) == ["add_facts", "correct_fact", "end_fact"]
    assert ops(from_time="2025-03-01") == ["end_fact"]
    assert len(ops(to_time="2025-03-01")) == 4
    assert ops(actor="nobody") == [] and len(ops(actor=store.principal.actor)) == 5
    first = store.audit(limit=2)
    assert [e.seq for e in first.items] == [1, 2] and first.next_after == 2
    second = store.audit(after=first.next_after, limit=2)
    assert [e.seq for e in second.items] == [3, 4] and second.next_after == 4
    assert [e.seq for e in store.audit(after=second.next_after, limit=2).items] == [5]
    assert store.audit(after=second.next_after, limit=2).next_after is None
    with pytest.raises(InvalidInput) as refused:
        store.audit(limit=0)
    assert refused.value.field == "limit"


def test_a_changed_event_is_detected_and_named(store, neo4j_db):
    _history(store)
    victim = store.audit().items[1]
    tamper(neo4j_db, "MATCH (a:AuditEvent {tenant: $t, event_id: $id}) SET a.detail = $d",
                   t=store.tenant, id=victim.event_id, d=json.dumps({"fields": ["nothing"]}))
    report = store.verify_ledger()
    assert not report.ok
    assert [(p.kind, p.event_id) for p in report.problems] == [("changed", victim.event_id)]


def test_a_deleted_event_is_detected_and_named_by_its_neighbours(store, neo4j_db):
    _history(store)
    events = store.audit().items
    tamper(neo4j_db, "MATCH (a:AuditEvent {tenant: $t, event_id: $id}) DELETE a",
                   t=store.tenant, id=events[1].event_id)
    report = store.verify_ledger()
    assert not report.ok
    [problem] = report.problems
    assert problem.kind == "removed" and problem.seq == 2 and problem.event_id == events[2].event_id


def test_a_deleted_last_event_is_detected_against_the_chain_head(store, neo4j_db):
    _history(store)
    last = store.audit().items[-1]
    tamper(neo4j_db, "MATCH (a:AuditEvent {tenant: $t, event_id: $id}) DELETE a",
                   t=store.tenant, id=last.event_id)
    [problem] = store.verify_ledger().problems
    assert problem.kind == "removed" and problem.seq == last.seq


def test_an_inserted_event_is_detected_and_named(store, neo4j_db):
    _history(store)
    events = store.audit().items
    forged = dict(event_id=f"a_forged_{store.tenant}", tenant=store.tenant, seq=3, at=events[2].at, action="add_facts",
                  subject_id="f_nobody", actor="system", prev_hash=events[1].hash, hash="0" * 64, detail="{}")
    tamper(neo4j_db, "CREATE (a:AuditEvent) SET a = $row", row=forged)
    unchained = dict(forged, event_id=f"a_loose_{store.tenant}", seq=None, hash=None, prev_hash=None)
    tamper(neo4j_db, "CREATE (a:AuditEvent) SET a = $row", row=unchained)
    report = store.verify_ledger()
    assert not report.ok
    assert sorted((p.kind, p.event_id) for p in report.problems) == [("inserted", forged["event_id"]),
                                                                      ("inserted", unchained["event_id"])]


def test_events_written_before_the_chain_are_reported_as_where_the_chain_starts(store, neo4j_db, clock):
    tamper(neo4j_db, "CREATE (:AuditEvent {event_id: 'a_old_' + $t, tenant: $t, at: datetime('2024-01-01T00:00:00Z'), "
                   "action: 'add_facts', subject_id: 'f_old', detail: '{}'})", t=store.tenant)
    _history(store)
    report = store.verify_ledger()
    assert report.ok and report.unchained == 1
    assert report.chain_starts_at == store.audit().items[0].at


def test_concurrent_writers_of_one_tenant_keep_one_unbroken_chain(store):
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(5):
                store.add_fact(f"service {n}", "runs_on", f"host {i}", valid_from="2024-01-01")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    events = store.audit().items
    assert [e.seq for e in events] == list(range(1, 21))
    assert store.verify_ledger().ok


def test_no_event_detail_holds_content(store):
    store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "maria",
                                  "text": "I guess Alice owns the Acme account now.", "at": "2024-01-05T09:00:00Z"}])
    store.remember("s1", "I guess Alice owns the Acme account now", "Alice owns the Acme account",
                   subject="Acme account", predicate="owned_by", object="Alice")
    doc = store.add_source("document", "The Acme account moved to Alice in January.", title="Handover memo")
    fact = store.add_fact("Acme account", "owned_by", "Alice", statement="Alice owns the Acme account")
    store.cite(fact.fact_id, doc.source_id, quote="moved to Alice")
    summary = store.add_summary("Acme: Alice owns it", derived_from=[fact.fact_id])
    assert summary.summary_id
    texts = ("Alice owns the Acme account", "moved to Alice", "Handover memo", "I guess", "Acme: Alice owns it")
    for event in store.audit().items:
        assert not CONTENT_KEYS & set(event.detail), (event.operation, event.detail)
        assert not any(t in json.dumps(event.detail) for t in texts), (event.operation, event.detail)
