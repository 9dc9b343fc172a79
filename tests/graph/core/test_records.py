"""Rows to models: a version's row read back as the Fact it was written as, instants exactly as Neo4j prints them."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.graph.core.records import fact_from_row, instant

UTC = timezone.utc


@pytest.mark.parametrize("text, expected", [
    ("2026-12-02T01:00:00Z", datetime(2026, 12, 2, 1, tzinfo=UTC)),
    ("2026-12-02T01:00:00.123456789Z", datetime(2026, 12, 2, 1, 0, 0, 123456, tzinfo=UTC)),
    ("2026-12-02T01:00:00.1Z", datetime(2026, 12, 2, 1, 0, 0, 100000, tzinfo=UTC)),
    ("2026-12-02T03:00:00.123456789+02:00", datetime(2026, 12, 2, 1, 0, 0, 123456, tzinfo=UTC)),
    ("2026-12-02T02:00:00.5+01:00[Europe/Paris]", datetime(2026, 12, 2, 1, 0, 0, 500000, tzinfo=UTC)),
    ("1912-01-01T00:00:00.000000001-05:00", datetime(1912, 1, 1, 5, tzinfo=UTC)),
])
def test_an_instant_reads_back_as_the_utc_datetime_neo4j_printed_to_the_microsecond(text, expected):
    got = instant(text)
    assert got == expected and got.utcoffset() == timedelta(0)


ROW = {"tenant": "t", "fact_id": "f_1", "version_id": "v_1", "subject_id": "e_1", "subject_name": "Alice",
       "predicate": "owns", "object_type": "entity", "object_value": "Acme", "object_id": "e_2",
       "object_name": "Acme", "statement": "Alice owns Acme", "scope_key": "{}", "kind": "semantic",
       "evidence": "unknown", "epistemic": "confirmed", "state": "active", "valid_from": "1912-01-01T00:00:00Z",
       "valid_from_precision": "year", "valid_to": None, "known_from": "2026-12-02T01:00:00.123456789Z",
       "known_to": None, "verified_at": "2026-12-02T01:00:00.123456789Z", "embedding": None, "flag": None,
       "disputed": False, "aliases": [], "independent_sources": 1}


@pytest.mark.parametrize("change, check", [
    ({}, lambda f: f.unreadable is None and f.scope == {} and f.valid_from == datetime(1912, 1, 1, tzinfo=UTC)),
    ({"scope_key": '{"env": "production"}'}, lambda f: f.scope == {"env": "production"}),
    ({"scope_key": None}, lambda f: f.unreadable is None and f.scope == {}),
    ({"scope_key": "not json"}, lambda f: f.unreadable is not None and f.unreadable.field == "scope"),
    ({"valid_from": "yesterday"}, lambda f: f.unreadable is not None and f.unreadable.field == "valid_from"),
    ({"state": "bogus"}, lambda f: f.unreadable is not None and f.unreadable.field == "state"),
    ({"flag": {"state": "stale", "cause": "premise ended"}}, lambda f: (f.state, f.stale_cause) == ("stale", "premise ended")),
    ({"disputed": True, "aliases": ["Alice has Acme"]}, lambda f: f.disputed and f.aliases == ("Alice has Acme",)),
])
def test_a_stored_row_reads_back_as_its_fact_or_is_named_unreadable(change, check):
    assert check(fact_from_row({**ROW, **change}))
