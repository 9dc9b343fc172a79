"""Reads at a past known time never drift; circular support gives none; literals and precisions survive."""

from __future__ import annotations

import credo


def test_why_at_a_known_time_is_not_changed_by_a_later_conflict(store, clock):
    clock.at("2025-01-01")
    alice = store.add_fact("Acme account", "owner", "Alice", valid_from="2024-01-01")
    before = clock.at("2025-01-02")
    clock.at("2025-01-03")
    bob = store.add_fact("Acme account", "owner", "Bob", valid_from="2024-08-01")
    assert bob.state == "conflicted" and store.why(alice.fact_id).fact.disputed
    assert store.why(alice.fact_id, known_at=before).fact.disputed is False
    assert store.why(alice.version_id, known_at=before).fact.disputed is False


def test_why_judges_premises_at_the_known_time_asked_for(store, clock):
    clock.at("2025-01-01")
    premise = store.add_fact("API v1", "status", "live", valid_from="2024-01-01", valid_to="2025-06-01")
    rule = store.add_fact("customer_legacy", "must_not", "be dropped", valid_from="2024-01-01",
                          depends_on=[premise.fact_id])
    asked = clock.at("2025-02-01")
    then = store.why(rule.fact_id, known_at=asked).justifications[0]
    clock.at("2025-09-01")  # the premise's valid time has ended by now; the answer about February must not move
    again = store.why(rule.fact_id, known_at=asked).justifications[0]
    assert then.holds and again.holds and then == again


def test_a_cycle_of_two_facts_with_no_outside_support_is_not_supported(store, clock):
    c = store.add_fact("c", "is", "claim c", valid_from="2024-01-01")
    d = store.add_fact("d", "is", "claim d", valid_from="2024-01-01", depends_on=[c.fact_id])
    assert {f.fact_id for f in store.facts(valid_at="2024-06-01")} >= {c.fact_id, d.fact_id}
    store.justify(c.fact_id, premises=[d.fact_id])  # now c⇐d and d⇐c, nothing else
    served = {f.fact_id for f in store.facts(valid_at="2024-06-01")}
    assert c.fact_id not in served and d.fact_id not in served
    assert {i.id for i in store.stale()} >= {c.fact_id, d.fact_id}


def test_text_literals_can_be_read_back_by_value(store):
    store.add_fact("Acme", "motto", credo.text("move fast"), valid_from="2024-01-01")
    assert [f.value for f in store.facts("Acme", "motto", credo.text("move fast"), valid_at="2024-02-01")] == ["move fast"]
    assert [f.subject for f in store.holders("motto", credo.text("move fast"), valid_at="2024-02-01")] == ["Acme"]


def test_range_write_pieces_keep_the_precision_of_their_bounds(store, clock):
    first = store.add_fact("sensor", "reading", 25, valid_from="2019-11-25")
    store.write_range("sensor", "reading", 26, valid_from="2019-11-26", valid_to="2019-11-29")
    assert [f.valid_text() for f in store.chain("sensor", "reading")] == [
        "[2019-11-25, 2019-11-26)", "[2019-11-26, 2019-11-29)", "[2019-11-29, …)"]
    assert first.fact_id in {f.fact_id for f in store.chain("sensor", "reading")}
