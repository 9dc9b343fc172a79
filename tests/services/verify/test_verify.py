"""Verification on a real store (DESIGN §11, issue 27 item 2): a verdict is recorded as `verified_by` on the version,
shown by why and the context package, and changes neither evidence nor epistemic status; a store with no verifier
says "not verified"; the human review queue approves, rejects and edits, inside the caller's clearance."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo.schema.errors import InvalidInput, NotFound
from credo.schema.pages import After
from credo.services.verify.review import ReviewQueue
from credo.services.verify.rules import RuleVerifier
from credo.store import Store
from tests.messages import messages

T0 = datetime(2025, 6, 1, 9, 0, tzinfo=timezone.utc)
MESSAGE = "Heads up: don't migrate the orders table while API v1 reads it."


msg = messages(T0, "alice")


def item_of(store: Store, fact_id: str):
    """The context package's item of a fact (whichever part holds it)."""
    package = store.context("orders table")
    return next(i for i in package.current + package.historical + package.open if i.fact.fact_id == fact_id)


def with_verifier(store: Store, verifier) -> Store:
    return Store(store._db, tenant=store.tenant, embedder=None, _clock=store._ctx.clock, _owns_db=False,
                 verifier=verifier, actor="carol")


@pytest.fixture
def overreach(store, clock):
    """A statement that drops the condition its quote's message states."""
    clock.at("2025-06-01T10:00:00+00:00")
    store.ingest_messages("w", [msg(0, MESSAGE), msg(1, "And I think Bob owns billing this week.")])
    return store.turn("w").remember("don't migrate the orders table", "Never migrate the orders table",
                                    subject="orders table", predicate="migration_policy", object="never migrate")


def test_a_store_with_no_verifier_says_not_verified_everywhere(store, overreach):
    outcome = store.verify(overreach.fact_id)
    assert (outcome.status, outcome.verified_by) == ("not verified", None) and "CREDO_VERIFIER" in outcome.note
    assert store.why(overreach.fact_id).verification == "not verified"
    assert "verification: not verified" in store.why(overreach.fact_id).text()
    item = item_of(store, overreach.fact_id)
    assert (item.verification, item.verified_by) == ("not verified", None)
    assert store.audit(operation="verify").items == []


def test_a_verdict_is_recorded_as_verified_by_shown_by_why_and_the_context_package_and_changes_nothing_else(
        store, overreach):
    judged = with_verifier(store, RuleVerifier())
    before = store.why(overreach.fact_id)
    outcome = judged.verify(overreach.fact_id)
    assert outcome.status == "verified" and outcome.version_id == overreach.version_id
    v = outcome.verified_by
    assert (v.verifier, v.verdict, v.overreach_kind) == ("rules", "overreach", "condition_dropped")
    assert "while" in v.reason
    after = store.why(overreach.fact_id)
    assert after.verified_by == v
    assert after.verification.startswith("overreach (condition_dropped) per rules") and "not a guarantee" in \
        after.verification
    # a judgement of its own kind: the version, its evidence and epistemic status are as they were
    assert (after.evidence, after.epistemic, after.fact) == (before.evidence, before.epistemic, before.fact)
    assert [f.version_id for f in store.history(overreach.fact_id)] == [overreach.version_id]
    item = item_of(store, overreach.fact_id)
    assert item.verified_by == v and item.evidence == before.evidence and item.epistemic == before.epistemic
    assert "verifier: overreach (condition_dropped) per rules" in store.context("orders table").markdown
    events = store.audit(operation="verify").items
    assert [(e.subject_id, e.detail["verdict"]) for e in events] == [(overreach.fact_id, "overreach")]


def test_a_verdict_recorded_later_is_not_known_at_an_earlier_point(store, clock, overreach):
    earlier = clock.now
    with_verifier(store, RuleVerifier()).verify(overreach.fact_id)
    assert store.why(overreach.fact_id, known_at=earlier).verification == "not verified"


def test_the_review_queue_approves_rejects_and_edits_each_as_a_persons_verdict(store, clock, overreach):
    reviewed = with_verifier(store, ReviewQueue())
    other = store.turn("w").remember("Bob owns billing", "Bob owns billing", subject="Bob", predicate="owns",
                                     object="billing")
    queued = reviewed.verify(overreach.fact_id)
    assert queued.status == "queued" and reviewed.verify(overreach.fact_id).review_item.item_id == \
        queued.review_item.item_id  # queued once while pending
    reviewed.verify(other.fact_id)
    queue = reviewed.review_queue()
    assert [i.fact_id for i in queue] == [overreach.fact_id, other.fact_id]
    first = queue[0]
    assert first.statement == "Never migrate the orders table"
    assert (first.excerpt.quote, first.excerpt.text) == ("don't migrate the orders table", MESSAGE)
    assert store.why(overreach.fact_id).verification == "not verified"  # queued is not verified

    rejected = reviewed.review(first.item_id, "reject", reason="drops the condition")
    assert rejected.state == "rejected" and rejected.decided_by == "carol"
    assert (rejected.verified_by.verdict, rejected.verified_by.actor) == ("unsupported", "carol")
    assert store.why(overreach.fact_id).verification.startswith("unsupported per review by carol")
    approved = reviewed.review(queue[1].item_id, "approve")
    assert approved.state == "approved" and store.why(other.fact_id).verified_by.verdict == "supported"
    assert reviewed.review_queue() == []
    with pytest.raises(InvalidInput, match="already decided"):
        reviewed.review(first.item_id, "approve")
    assert [e.detail["verdict"] for e in store.audit(operation="review").items] == ["unsupported", "supported"]


def test_edit_and_approve_corrects_through_the_correct_path_then_approves_the_corrected_version(store, overreach):
    reviewed = with_verifier(store, ReviewQueue())
    item = reviewed.verify(overreach.fact_id).review_item
    done = reviewed.review(item.item_id, "edit",
                           statement="Don't migrate the orders table while API v1 reads it")
    versions = store.history(overreach.fact_id)
    assert len(versions) == 2 and versions[-1].statement == "Don't migrate the orders table while API v1 reads it"
    assert done.state == "edited" and done.version_id == overreach.version_id
    assert done.verified_by.version_id == versions[-1].version_id and done.verified_by.verdict == "supported"
    why = store.why(overreach.fact_id)
    assert why.fact.version_id == versions[-1].version_id and why.verified_by.actor == "carol"
    assert store.audit(operation="correct_fact").items  # the normal correct path wrote its own event


def test_an_edit_needs_a_statement_and_only_an_edit_takes_one(store, overreach):
    reviewed = with_verifier(store, ReviewQueue())
    item = reviewed.verify(overreach.fact_id).review_item
    with pytest.raises(InvalidInput, match="statement"):
        reviewed.review(item.item_id, "edit")
    with pytest.raises(InvalidInput, match="statement"):
        reviewed.review(item.item_id, "approve", statement="x")


def test_the_queue_and_decisions_stay_inside_the_callers_clearance(store, overreach):
    reviewed = with_verifier(store, ReviewQueue())
    secret = store.add_fact("vault", "root_password_rotation", "weekly", sensitivity="secret")
    reviewed.verify(overreach.fact_id)
    hidden = reviewed.verify(secret.fact_id).review_item
    low = reviewed.for_tenant(store.tenant, clearance="internal")
    assert [i.fact_id for i in low.review_queue()] == [overreach.fact_id]
    with pytest.raises(NotFound):
        low.review(hidden.item_id, "approve")
    with pytest.raises(NotFound):
        low.verify(secret.fact_id)
    assert [i.fact_id for i in reviewed.review_queue()] == [overreach.fact_id, secret.fact_id]


def test_the_queue_is_paged_by_key(store, clock):
    reviewed = with_verifier(store, ReviewQueue())
    ids = [store.add_fact(f"service {n}", "owner", f"team {n}").fact_id for n in range(3)]
    for fact_id in ids:
        reviewed.verify(fact_id)
    first = reviewed.review_queue(page=After(None, 2))
    assert [i.fact_id for i in first] == ids[:2] and first.next_after is not None
    rest = reviewed.review_queue(page=After(first.next_after, 2))
    assert [i.fact_id for i in rest] == ids[2:] and rest.next_after is None
    assert reviewed.review_queue(page=After(None, 2))[0].excerpt.quote is None  # a curated fact has no excerpt


def test_a_fact_without_an_excerpt_is_unsupported_by_the_rules(store):
    fact = store.add_fact("cache", "ttl", "300 seconds")
    assert with_verifier(store, RuleVerifier()).verify(fact.fact_id).verified_by.verdict == "unsupported"


def test_an_unknown_fact_is_not_found(store):
    with pytest.raises(NotFound):
        with_verifier(store, RuleVerifier()).verify("f_missing")
    with pytest.raises(NotFound):
        store.review("rq_missing", "approve")


def test_a_forgotten_fact_leaves_the_review_queue_and_the_queue_held_no_copy_of_it(store, overreach):
    reviewed = with_verifier(store, ReviewQueue())
    item = reviewed.verify(overreach.fact_id).review_item
    store.forget(overreach.fact_id, reason="asked", actor="alice")
    assert reviewed.review_queue() == []
    with pytest.raises(NotFound):
        reviewed.review(item.item_id, "approve")
    with pytest.raises(InvalidInput, match="forgotten"):
        with_verifier(store, RuleVerifier()).verify(overreach.fact_id)
