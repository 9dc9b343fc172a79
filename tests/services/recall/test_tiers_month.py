"""Tiers and the utility ledger on a real Neo4j: served recalls count as neutral, feedback re-classifies them, and
a simulated month of daily `maintain` sweeps with an injected clock moves memories by seed 001's table."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.errors import InvalidInput, NotFound
from credo.services.recall import utility

DAY0 = datetime(2025, 1, 1, 9, 0, tzinfo=timezone.utc)


def test_one_recall_then_useful_nets_exactly_one_and_harmful_minus_two(store):
    fact = store.add_fact("Alice", "prefers", "tea", statement="Alice prefers tea")
    utility.record_recalls(store._ctx, receipt_id="r1", fact_ids=[fact.fact_id])
    utility.record_recalls(store._ctx, receipt_id="r1", fact_ids=[fact.fact_id])  # the same receipt counts once
    assert store.utility(fact.fact_id).recalls == {"neutral": 1}
    after = store.feedback("r1", fact.fact_id, outcome="useful")
    assert after.utility == 1.0 and after.recalls == {"useful": 1} and after.uses == 1
    assert store.feedback("r1", fact.fact_id, outcome="useful").utility == 1.0  # a verdict is not an extra row
    utility.record_recalls(store._ctx, receipt_id="r2", fact_ids=[fact.fact_id])
    assert store.feedback("r2", fact.fact_id, outcome="harmful").utility == -1.0
    utility.record_recalls(store._ctx, receipt_id="r3", fact_ids=[fact.fact_id])
    unknown = store.feedback("r3", fact.fact_id, outcome="unknown", reason="the task result did not say")
    assert unknown.utility == -1.0 and unknown.recalls == {"harmful": 1, "neutral": 1, "useful": 1}
    logged = store.audit(operation="feedback", id=fact.fact_id).items
    assert [(e.detail["from"], e.detail["to"]) for e in logged][-1] == ("neutral", "unknown")
    assert logged[-1].reason == "the task result did not say"


def test_feedback_on_a_recall_that_was_never_served_is_not_found_in_any_tenant(store):
    fact = store.add_fact("Alice", "prefers", "tea")
    with pytest.raises(NotFound):
        store.feedback("r-none", fact.fact_id, outcome="useful")
    utility.record_recalls(store._ctx, receipt_id="r1", fact_ids=[fact.fact_id])
    with pytest.raises(NotFound):
        store.for_tenant(store.tenant + "-other").feedback("r1", fact.fact_id, outcome="useful")
    with pytest.raises(InvalidInput) as refused:
        store.feedback("r1", fact.fact_id, outcome="great")
    assert refused.value.field == "outcome"


def test_a_simulated_month_moves_memories_by_the_tier_table(store, clock):
    clock.at(DAY0)
    store.maintain(episodic_ttl_days=14)
    rule = store.add_fact("deploys", "need", "two approvals", confidence=0.9, statement="deploys need two approvals")
    idle = store.add_fact("Bob", "likes", "jazz", confidence=0.5)
    standup = store.add_fact("standup", "happened_on", "2025-01-01", kind="episodic")
    recipe = store.add_fact("release", "steps", "tag, build, ship", kind="procedural")
    tiers: dict[str, list[str]] = {f.fact_id: [] for f in (rule, idle, standup)}
    due_on: dict[str, int] = {}
    for day in range(1, 31):
        if day in (2, 3, 4):
            clock.at(DAY0 + timedelta(days=day))
            utility.record_recalls(store._ctx, receipt_id=f"r-{day}", fact_ids=[rule.fact_id])
        clock.at(DAY0 + timedelta(days=day, hours=3, minutes=day))  # sweeps drift a minute a day: no equal instants
        report = store.maintain()
        assert len({m.fact_id for m in report.tier_moves}) == len(report.tier_moves)  # one move per sweep at most
        assert store.maintain().tier_moves == []  # idempotent: sweeping again right away moves nothing
        for fact_id in report.ttl_due:
            due_on.setdefault(fact_id, day)
        for fact_id, seen in tiers.items():
            seen.append(store.utility(fact_id).tier.value)

    def moves(seen: list[str]) -> list[tuple[int, str]]:
        return [(day, t) for day, (before, t) in enumerate(zip(["working", *seen], seen), start=1) if before != t]

    # used on days 2-4 (active on 3 days) and important: short on day 1, medium on day 4, long on day 5, then stays
    assert moves(tiers[rule.fact_id]) == [(1, "short_term"), (4, "medium_term"), (5, "long_term")]
    # never used: short after a day idle, back to working after the 7-day short-term TTL, and round again
    assert moves(tiers[idle.fact_id]) == [(1, "short_term"), (8, "working"), (9, "short_term"), (16, "working"),
                                          (17, "short_term"), (24, "working"), (25, "short_term")]
    assert store.utility(rule.fact_id).active_days == 3 and store.utility(rule.fact_id).uses == 3
    # the episodic memory is due for forgetting on day 14 (TTL 14 days), recorded once in the ledger
    assert due_on == {standup.fact_id: 14}
    # and rolling off is forgetting: the memory's content is gone, verified by an empty residue report
    assert store.verify_forgotten(standup.fact_id).complete
    assert all(f.fact_id != standup.fact_id for f in store.facts(subject="standup"))
    [due_event] = store.audit(operation="ttl_due").items
    assert standup.fact_id in due_event.ids and due_event.detail["ttl_days"] == 14
    with pytest.raises(NotFound):
        store.utility(recipe.fact_id)  # procedural memories have no tier
    assert store.verify_ledger().ok


def test_a_package_served_to_a_task_counts_each_memory_once_as_a_neutral_recall_that_feedback_reclassifies(store):
    # given a preference, when an agent is served a context package for a task
    fact = store.add_fact("Alice", "prefers", "tea", statement="Alice prefers tea")
    package = store.context("Alice", task="t-plan")
    assert package.receipt_id is not None
    # then the read receipt counted the memory as one neutral recall in the utility ledger
    assert store.utility(fact.fact_id).recalls == {"neutral": 1}
    # and feedback on that receipt re-classifies the same recall: one recall then "useful" nets exactly 1.0
    after = store.feedback(package.receipt_id, fact.fact_id, outcome="useful")
    assert after.utility == 1.0 and after.recalls == {"useful": 1}
