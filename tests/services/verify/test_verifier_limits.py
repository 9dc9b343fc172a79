"""The LLM verifier is bounded per tenant (each call costs money and time): at most CREDO_VERIFIER_PER_MINUTE calls
in any minute and CREDO_VERIFIER_CONCURRENCY at once; past either, `verify` is refused as rate_limited (429) naming
the limit, before the endpoint is called and before anything is written. Counted in the service, so every surface
(REST, CLI, extraction's verification of its candidates) shares the bound; another tenant has its own."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timezone

import pytest

from credo.schema.errors import RateLimited
from credo.services.verify.limits import TenantBound
from credo.services.verify.llm import LLMVerifier
from credo.services.verify.verify import verify_candidates
from credo.settings import Settings
from credo.store import Store

MESSAGE = "Heads up: don't migrate the orders table while API v1 reads it."
SUPPORTED = json.dumps({"verdict": "supported", "overreach_kind": None, "reason": "says the same"})


class Endpoint:
    """A stand-in for the chat client that counts the calls it is sent and can hold one until released."""

    def __init__(self) -> None:
        self.calls = 0
        self.entered = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def complete(self, messages, json_mode=False):
        self.calls += 1
        self.entered.set()
        self.release.wait(10)
        return SUPPORTED

    def close(self) -> None:
        pass


class Minutes:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def seeded(store: Store) -> str:
    store.ingest_messages("w", [{"index": 0, "role": "user", "origin": "human_input", "author": "alice",
                                 "text": MESSAGE, "at": datetime(2025, 6, 1, tzinfo=timezone.utc)}])
    return store.turn("w").remember("don't migrate the orders table", "Never migrate the orders table",
                                    subject="orders table", predicate="migration_policy",
                                    object="never migrate").fact_id


@pytest.fixture
def bounded(neo4j_db, tenant):
    """A store whose LLM verifier allows 2 calls a minute and 1 at once per tenant, and the endpoint behind it."""
    endpoint, clock = Endpoint(), Minutes()
    verifier = LLMVerifier(Settings(llm_base_url="http://127.0.0.1:9/v1", llm_model="m"), client=endpoint)
    verifier.bound = TenantBound(per_minute=2, concurrent=1, clock=clock)
    store = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False, verifier=verifier)
    return store, endpoint, clock


def test_the_settings_bound_the_llm_verifier_by_default():
    verifier = LLMVerifier(Settings(llm_base_url="http://127.0.0.1:9/v1", llm_model="m"))
    assert (verifier.bound.per_minute, verifier.bound.concurrent) == (30, 2)
    tight = LLMVerifier(Settings(llm_base_url="http://127.0.0.1:9/v1", llm_model="m", verifier_per_minute=5,
                                 verifier_concurrency=1))
    assert (tight.bound.per_minute, tight.bound.concurrent) == (5, 1)


def test_past_the_calls_a_minute_verify_is_refused_naming_the_limit_and_calls_nothing(bounded):
    store, endpoint, clock = bounded
    fact_id = seeded(store)
    assert [store.verify(fact_id).status for _ in range(2)] == ["verified", "verified"]
    with pytest.raises(RateLimited) as refused:
        store.verify(fact_id)
    assert refused.value.field == "verifier_per_minute" and "CREDO_VERIFIER_PER_MINUTE" in refused.value.rule
    assert 0 < refused.value.retry_after <= 60
    assert endpoint.calls == 2 and len(store.audit(operation="verify").items) == 2
    # another tenant has its own bound
    other = store.for_tenant(store.tenant + "_other")
    assert other.verify(seeded(other)).status == "verified"
    # a minute after the first call, one more is allowed
    clock.now += 60
    assert store.verify(fact_id).status == "verified" and endpoint.calls == 4


def test_past_the_calls_at_once_verify_is_refused_naming_the_limit(bounded):
    store, endpoint, _clock = bounded
    fact_id = seeded(store)
    endpoint.release.clear()
    first = threading.Thread(target=store.verify, args=(fact_id,))
    first.start()
    try:
        assert endpoint.entered.wait(10)
        with pytest.raises(RateLimited) as refused:
            store.verify(fact_id)
        assert refused.value.field == "verifier_concurrency" and "CREDO_VERIFIER_CONCURRENCY" in refused.value.rule
    finally:
        endpoint.release.set()
        first.join(10)
    assert endpoint.calls == 1
    assert store.verify(fact_id).status == "verified"  # the slot is free again


def test_extraction_over_the_bound_keeps_its_candidates_not_verified(bounded):
    store, endpoint, _clock = bounded
    fact_id = seeded(store)
    store.verify(fact_id)
    store.verify(fact_id)
    assert verify_candidates(store._ctx, [fact_id]) == []  # refused by the bound: logged, never raised
    assert endpoint.calls == 2


def test_the_bound_is_pure_bookkeeping_table():
    clock = Minutes()
    bound = TenantBound(per_minute=1, concurrent=1, clock=clock)
    with bound.slot("a"):
        pass
    with pytest.raises(RateLimited):
        with bound.slot("a"):
            pass
    with bound.slot("b"):
        pass
    clock.now += 59.9
    with pytest.raises(RateLimited) as refused:
        with bound.slot("a"):
            pass
    assert refused.value.retry_after == 1  # whole seconds, rounded up
    clock.now += 0.1
    with bound.slot("a"):
        pass
