"""Read receipts (issue 11 item 5): a read given a task records which versions it served, with their usage count,
so what the agent knew when it acted, and which tasks were served a version, stay answerable."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput, NotFound
from credo.services.recall import receipts


def usage(store, version_id):
    rows = store._db.query(_USAGE, version_id=version_id, tenant=store.tenant)
    return rows[0]["count"] if rows else None


class _Q:  # a test-only query: the usage count the receipt step keeps on a version
    text = "MATCH (f:Fact {version_id: $version_id}) WHERE f.tenant = $tenant RETURN coalesce(f.served_count, 0) AS count"


_USAGE = _Q()


def test_a_receipt_records_what_a_task_was_served_and_when(store, clock):
    # given two facts
    clock.at("2024-02-01")
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    city = store.add_fact("Alice", "based_in", "Lisbon", valid_from="2023-01-01")
    # when a read serves them to a task
    receipt_id = receipts.served(store._ctx, task="draft-renewal", version_ids=[alice.version_id, city.version_id],
                                 operation="context", query="Acme account")
    # and the owner changes afterwards
    clock.at("2024-06-02")
    store.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01")
    # then served_to answers what the task knew: the versions as they were served, in rank order
    [receipt] = store.served_to("draft-renewal")
    assert receipt.receipt_id == receipt_id and receipt.operation == "context" and receipt.query == "Acme account"
    assert [v.version_id for v in receipt.versions] == [alice.version_id, city.version_id]
    assert receipt.versions[0].object_name == "Alice"
    assert receipt.at > alice.known_from
    # and each served version counted one use
    assert usage(store, alice.version_id) == 1


def test_tasks_served_names_every_task_a_fact_or_version_was_served_to(store, clock):
    # given a fact served to two tasks and another served to one
    fact = store.add_fact("Payments", "migrates_to", "Postgres", valid_from="2024-01-01")
    other = store.add_fact("Search", "runs_on", "Elastic", valid_from="2024-01-01")
    receipts.served(store._ctx, task="t1", version_ids=[fact.version_id, other.version_id], operation="context")
    receipts.served(store._ctx, task="t2", version_ids=[fact.version_id], operation="search")
    # when asked by fact id and by version id
    by_fact = store.tasks_served(fact.fact_id)
    by_version = store.tasks_served(fact.version_id)
    # then both name the two tasks, each receipt holding only that fact's version
    assert [r.task for r in by_fact] == ["t1", "t2"] == [r.task for r in by_version]
    assert all([v.version_id for v in r.versions] == [fact.version_id] for r in by_fact)
    assert [r.task for r in store.tasks_served(other.fact_id)] == ["t1"]
    assert usage(store, fact.version_id) == 2


def test_a_fact_never_served_has_no_tasks_and_an_unknown_id_is_not_found(store):
    fact = store.add_fact("Payments", "owned_by", "Team A", valid_from="2024-01-01")
    assert store.tasks_served(fact.fact_id) == []
    with pytest.raises(NotFound):
        store.tasks_served("f_nothing")
    with pytest.raises(NotFound):
        store.served_to("never-ran")


def test_receipts_are_tenant_scoped(store):
    # given a task of one tenant served a version
    fact = store.add_fact("Payments", "owned_by", "Team A", valid_from="2024-01-01")
    receipts.served(store._ctx, task="shared-label", version_ids=[fact.version_id], operation="context")
    other = store.for_tenant(store.tenant + "_other")
    # then another tenant sees neither the task nor the fact, and cannot link that version to its own receipt
    with pytest.raises(NotFound):
        other.served_to("shared-label")
    with pytest.raises(NotFound):
        other.tasks_served(fact.fact_id)
    receipts.served(other._ctx, task="shared-label", version_ids=[fact.version_id], operation="context")
    assert other.served_to("shared-label")[0].versions == []
    assert [r.task for r in store.tasks_served(fact.fact_id)] == ["shared-label"]


def test_a_task_label_must_be_a_name(store):
    with pytest.raises(InvalidInput) as err:
        store.served_to("   ")
    assert err.value.field == "task"


def test_a_search_given_a_task_records_the_fact_versions_it_served_and_one_without_records_nothing(store, clock):
    # given a fact
    clock.at("2024-02-01")
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    # when a search serves it to a task
    found = store.search("who owns the Acme account", task="renewal-check")
    served = [h.version_id for h in found.hits if h.kind == "fact"]
    assert alice.version_id in served
    # then served_to answers it: the receipt names the search, its question and the fact versions in rank order
    [receipt] = store.served_to("renewal-check")
    assert (receipt.receipt_id, receipt.operation, receipt.query) == (found.receipt_id, "search",
                                                                      "who owns the Acme account")
    assert [v.version_id for v in receipt.versions] == served
    # and a search without a task records no receipt
    assert store.search("who owns the Acme account").receipt_id is None
    assert len(store.served_to("renewal-check")) == 1
