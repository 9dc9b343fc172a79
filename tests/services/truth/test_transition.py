"""The transition check (DESIGN.md §11, issue 27 item 2): the writes between two known times judged as changes -
coverage (what each asked did change), preservation (nothing outside their reach changed), faithfulness (what was
added is grounded). Timelines with a controlled clock; breaks are seeded behind the service's back with raw Cypher
through the test's own driver."""

from __future__ import annotations

import json
import secrets
from datetime import timedelta

import pytest

from credo.schema.api_keys import Principal
from credo.schema.errors import InvalidInput
from credo.schema.provenance import Proposal
from credo.schema.time import parse_instant
from credo.services.adapters.extractors import ScriptedExtractor
from tests.services.gate.test_extraction import ACCEPTED, CONVERSATION, FINAL, msg
from tests.services.truth.test_diff import timeline  # noqa: F401 - the belief diff's mixed timeline, as a fixture


def _raw(db, query: str, **params) -> None:
    """A write behind the service's back: no unit of work, no ledger event."""
    db._driver.execute_query(query, params, database_=db.database)


def _all_ok(report) -> None:
    assert report.coverage.ok and report.preservation.ok and report.faithfulness.ok, report.model_dump_json(indent=1)
    assert report.coverage.findings == [] and report.preservation.findings == [] and report.ok


def test_an_extraction_then_its_admission_is_covered_preserved_and_grounded(store, clock):
    # given a conversation ingested
    clock.at("2025-05-01T12:00:00+00:00")
    store.ingest_messages("c", CONVERSATION)
    before = clock.at("2025-05-02")
    # when the extractor's final set is committed, then one candidate is admitted
    clock.at("2025-05-03")
    result = store.extract("c", ScriptedExtractor([lambda seg, cands: Proposal(candidates=[FINAL, ACCEPTED])]),
                           segment_size=10)
    clock.at("2025-05-04")
    admitted = store.admit(result.facts[0].fact_id, by="reviewer")
    after = clock.at("2025-05-05")
    report = store.check_transition(before, after)
    # then every dimension holds: each extracted fact and the admission show in the diff, nothing else changed,
    # and each added fact stands on its quote or its acceptance
    _all_ok(report)
    ops = [e.operation for e in store.audit(from_time=before, to_time=after).items]
    assert report.events == len(ops) and {"extract", "admit"} <= set(ops), ops
    # the extraction's own add_facts event and its extract event each name both facts; the admission its version
    assert report.coverage.checked == 5, ops
    assert report.faithfulness.findings == [] and report.faithfulness.checked == 2
    assert report.withheld == 0 and report.complete
    # and the window of the admission alone judges it alone
    alone = store.check_transition("2025-05-03T12:00:00+00:00", after)
    _all_ok(alone)
    assert alone.events == 1 and alone.changes == 1 and admitted.state == "active"


def test_a_merge_is_covered_preserved_and_grounded(store, clock):
    # given a remembered claim and the same claim written directly, then cited from a runbook
    clock.at("2025-06-01T10:00:00+00:00")
    store.ingest_messages("w", [msg(0, "Note for the ops runbook: the nightly export runs at 02:00 UTC.")])
    remembered = store.turn("w").remember("the nightly export runs at 02:00 UTC", "The nightly export runs at 02:00 UTC",
                                          subject="nightly export", predicate="runs_at", object="02:00 UTC")
    doc = store.add_source("document", "Runbook v3: export at 02:00 UTC daily.", title="Runbook v3", author="ops")
    direct = store.add_fact("nightly export", "runs_at", "02:00 UTC", valid_from="2025-01-01")
    store.cite(direct.fact_id, doc.source_id, quote="export at 02:00 UTC daily")
    before = clock.at("2025-06-02")
    # when they are merged into one canonical fact
    clock.at("2025-06-03")
    merged = store.merge_facts([remembered.fact_id, direct.fact_id], statement="The nightly export runs at 02:00 UTC")
    report = store.check_transition(before, clock.at("2025-06-04"))
    # then the merge asked its new fact and the end of both inputs, and the merged fact carries their sources
    _all_ok(report)
    # (the merged fact is recorded by an add_facts event of the same write: its version is asked twice)
    assert report.coverage.checked == 4 and report.faithfulness.checked == 1 and report.faithfulness.findings == []
    assert report.events == 2 and merged.fact_id not in {remembered.fact_id, direct.fact_id}
    # and the whole story - remembered from a quote, written directly, cited, merged - holds too; the direct write
    # is ungrounded until the citation: a window ending before it says so, one ending after it does not
    whole = store.check_transition("2025-05-31", "2025-06-04")
    _all_ok(whole)
    assert whole.faithfulness.findings == []
    early = store.check_transition("2025-05-31", direct.known_from)
    assert [f.fact_id for f in early.faithfulness.findings] == [direct.fact_id]


def test_a_conflict_resolution_is_covered_and_preserved(store, clock):
    # given an owner and a conflicting claim kept, not applied
    clock.at("2025-01-01")
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    clock.at("2025-01-02")
    store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-01-01")
    conflict = store.conflicts()[0]
    before = clock.at("2025-01-03")
    # when it is resolved as a succession
    clock.at("2025-01-04")
    store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-08-01")
    report = store.check_transition(before, clock.at("2025-01-05"))
    # then the resolution shows, and the established owner's end is within its reach
    _all_ok(report)
    assert report.events == 1 and report.changes >= 2 and report.coverage.checked == 1


def test_a_version_closed_behind_the_services_back_breaks_preservation_and_names_the_fact(store, clock, neo4j_db):
    clock.at("2025-01-01")
    kept = store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01")
    touched = store.add_fact("Office lease", "held_by", "Acme", valid_from="2024-01-01")
    before = clock.at("2025-01-02")
    clock.at("2025-01-03")
    store.correct_fact(kept.fact_id, object="staff engineer")
    # a raw write inside the window closes the lease's version: no ledger event, no unit of work
    _raw(neo4j_db, "MATCH (f:Fact {version_id: $v}) SET f.known_to = $at, f.ended_by = 'retraction', "
                   "f.end_reason = 'edited by hand'", v=touched.version_id, at=parse_instant("2025-01-03T06:00:00Z", "at"))
    report = store.check_transition(before, clock.at("2025-01-04"))
    assert report.coverage.ok  # the correction itself shows
    assert not report.preservation.ok and not report.ok
    [finding] = report.preservation.findings
    assert finding.fact_id == touched.fact_id and finding.version_id == touched.version_id
    assert finding.kind == "unexplained" and finding.event_id is None and "no ledger event" in finding.why


def test_a_version_added_behind_the_services_back_at_a_writes_known_time_is_outside_its_reach(store, clock, neo4j_db):
    clock.at("2025-01-01")
    fact = store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01")
    before = clock.at("2025-01-02")
    clock.at("2025-01-03")
    fixed = store.correct_fact(fact.fact_id, object="staff engineer")
    # a copy of another claim slipped in with the correction's own known time
    slipped = f"f_{secrets.token_hex(10)}"
    _raw(neo4j_db, "MATCH (f:Fact {version_id: $v}) WITH properties(f) AS p "
                   "CREATE (g:Fact) SET g = p {.*, fact_id: $fid, version_id: $vid}",
         v=fixed.version_id, fid=slipped, vid=f"v_{secrets.token_hex(10)}")
    report = store.check_transition(before, clock.at("2025-01-04"))
    assert not report.preservation.ok
    assert [(f.fact_id, f.kind.value) for f in report.preservation.findings] == [(slipped, "unexplained")]
    assert "no write of its known time names it" in report.preservation.findings[0].why


def test_a_ledger_event_whose_asked_change_is_absent_breaks_coverage(store, clock, neo4j_db):
    clock.at("2025-01-01")
    fact = store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01")
    before = clock.at("2025-01-02")
    # an event claims a correction that never happened (written raw: no version changed)
    event_id, new = f"a_{secrets.token_hex(10)}", f"v_{secrets.token_hex(10)}"
    _raw(neo4j_db, "CREATE (:AuditEvent {event_id: $eid, tenant: $tenant, seq: 99, at: $at, "
                   "action: 'correct_fact', subject_id: $fid, ids: [$fid, $v, $new], detail: $detail})",
         eid=event_id, tenant=store.tenant, at=parse_instant("2025-01-03", "at"), fid=fact.fact_id, v=fact.version_id,
         new=new, detail=json.dumps({"old": fact.version_id, "new": new, "fields": ["object"]}))
    report = store.check_transition(before, clock.at("2025-01-04"))
    assert not report.coverage.ok and report.preservation.ok
    assert {(f.event_id, f.version_id) for f in report.coverage.findings} == {(event_id, fact.version_id),
                                                                              (event_id, new)}
    assert all(f.operation == "correct_fact" and f.fact_id == fact.fact_id for f in report.coverage.findings)


def test_an_operators_direct_write_is_reported_ungrounded_and_fails_only_when_strict(store, clock):
    clock.at("2025-01-01")
    before = clock.at("2025-01-02")
    clock.at("2025-01-03")
    direct = store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01")
    after = clock.at("2025-01-04")
    report = store.check_transition(before, after)
    [finding] = report.faithfulness.findings
    assert (finding.kind.value, finding.fact_id, finding.version_id, finding.operation) == (
        "ungrounded", direct.fact_id, direct.version_id, "add_facts")
    assert report.faithfulness.ok and report.ok  # reported, not a failure
    strict = store.check_transition(before, after, strict=True)
    assert not strict.faithfulness.ok and not strict.ok and strict.strict


def test_a_caller_sees_findings_only_about_what_it_is_cleared_for(store, clock):
    clock.at("2025-01-01")
    public = store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01", sensitivity="public")
    secret = store.add_fact("Carol", "earns", "91234 a year", valid_from="2024-01-01", sensitivity="secret")
    before = clock.at("2025-01-02")
    clock.at("2025-01-03")
    store.correct_fact(secret.fact_id, object="99000 a year")
    after = clock.at("2025-01-04")
    everything = store.check_transition(before, after)
    assert secret.fact_id in {f.fact_id for f in everything.faithfulness.findings}
    low = store.for_principal(Principal(tenant=store.tenant, clearance="internal"))
    seen = low.check_transition(before, after)
    # nothing of the secret fact is named; the report says how much it left out
    text = seen.model_dump_json()
    assert secret.fact_id not in text and secret.version_id not in text and "Carol" not in text
    assert seen.events == 0 and seen.changes == 0 and seen.withheld >= 2 and not seen.complete
    assert "not cleared to see" in seen.withheld_note and public.fact_id not in text


def test_a_reversed_window_is_refused_naming_the_field(store):
    with pytest.raises(InvalidInput) as refused:
        store.check_transition("2025-02-01", "2025-01-01")
    assert refused.value.field == "known_after"


def test_an_empty_window_holds(store, clock):
    clock.at("2025-01-01")
    store.add_fact("Bob", "role", "engineer", valid_from="2024-01-01")
    start = clock.at("2025-01-02")
    report = store.check_transition(start, start + timedelta(days=1))
    _all_ok(report)
    assert (report.events, report.changes, report.withheld) == (0, 0, 0)


def test_a_mixed_timeline_of_writes_is_covered_and_preserved_end_to_end(store, timeline):
    # given the belief diff's mixed timeline: a correction, a succession, an end, two retractions (one making a rule
    # stale through the cascade), a secret fact added, a forget, direct additions - one write a day
    report = store.check_transition("2025-01-31", "2025-02-10")
    # then each write's asked change shows and every change is explained by a write or its cascade
    assert report.coverage.ok and report.preservation.ok, report.model_dump_json(indent=1)
    assert report.coverage.checked >= 9 and report.changes == len(store.diff("2025-01-31", "2025-02-10").changes)
    # and the operator's direct writes are listed ungrounded (none of them cites a source), yet do not fail
    ungrounded = {f.fact_id for f in report.faithfulness.findings}
    assert timeline.facts["role"] in ungrounded and timeline.secret in ungrounded and report.faithfulness.ok
    assert timeline.facts["salary"] not in ungrounded  # a forgotten fact has nothing left to ground
    # a caller below secret sees nothing of the secret write: it is counted, not named
    low = store.for_principal(Principal(tenant=store.tenant, clearance="internal"))
    seen = low.check_transition("2025-01-31", "2025-02-10")
    assert timeline.secret not in seen.model_dump_json() and seen.withheld >= 1 and not seen.complete
    assert seen.coverage.ok and seen.preservation.ok


def test_a_scope_narrows_the_check_to_the_writes_and_changes_of_that_scope(store, clock, neo4j_db):
    clock.at("2025-01-01")
    before = clock.at("2025-01-02")
    clock.at("2025-01-03")
    prod = store.add_fact("api", "timeout", "30s", valid_from="2024-01-01", scope={"env": "prod"})
    staging = store.add_fact("api", "timeout", "90s", valid_from="2024-01-01", scope={"env": "staging"})
    # a staging version closed behind the service's back
    _raw(neo4j_db, "MATCH (f:Fact {version_id: $v}) SET f.known_to = $at, f.ended_by = 'retraction'",
         v=staging.version_id, at=parse_instant("2025-01-03T06:00:00Z", "at"))
    after = clock.at("2025-01-04")
    narrowed = store.check_transition(before, after, scope={"env": "prod"})
    assert narrowed.ok and narrowed.events == 1
    assert {f.fact_id for f in narrowed.faithfulness.findings} == {prod.fact_id}
    whole = store.check_transition(before, after)
    assert [f.fact_id for f in whole.preservation.findings] == [staging.fact_id]
