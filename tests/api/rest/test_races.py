"""The loser of a race is told it lost (409 not_current), never that its input was invalid (422), through real
concurrent HTTP requests on a live server (issue 24 §8). Both requests are held at the tenant's commit clock until
each has read what it acts on, so the race is certain, not a matter of timing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx

from credo.cypher import Query
from credo.store import Store
from tests.api.conftest import new_tenant

HOLD_CLOCK = Query("test_hold_clock", "MERGE (c:Clock {tenant: $tenant}) SET c.locks = coalesce(c.locks, 0) "
                   "RETURN c.locks AS locks", frozenset())
BLOCKED = Query("test_blocked_on_clock", "SHOW TRANSACTIONS YIELD parameters, status "
                "WHERE status STARTS WITH 'Blocked' AND parameters.tenant = $tenant RETURN count(*) AS blocked",
                frozenset())


@contextmanager
def clock_held(db, tenant: str) -> Iterator[None]:
    """Hold the tenant's commit clock (as a write does) until the block ends."""
    taken, release = threading.Event(), threading.Event()

    def hold(tx) -> None:
        tx.rows(HOLD_CLOCK, tenant=tenant)
        taken.set()
        release.wait(30)

    holder = threading.Thread(target=lambda: db.write(hold))
    holder.start()
    assert taken.wait(10)
    try:
        yield
    finally:
        release.set()
        holder.join(30)


def race(db, tenant: str, base_url: str, headers: dict, calls: list[tuple[str, dict]]) -> list[httpx.Response]:
    """POST every call at once while the clock is held; release it once all wait for it; the answers in order."""
    answers: list[httpx.Response | None] = [None] * len(calls)

    def post(i: int, path: str, body: dict) -> None:
        with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
            answers[i] = client.post(path, json=body)

    with clock_held(db, tenant):
        threads = [threading.Thread(target=post, args=(i, *call)) for i, call in enumerate(calls)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 20
        while db.query(BLOCKED, tenant=tenant)[0]["blocked"] < len(calls):
            assert time.monotonic() < deadline, "the writes never queued at the clock"
            time.sleep(0.02)
    for t in threads:
        t.join(60)
    return answers  # type: ignore[return-value]


def one_won_one_lost(answers: list[httpx.Response]) -> None:
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409], [a.text for a in answers]
    lost = next(a for a in answers if a.status_code == 409).json()
    assert lost["code"] in ("not_current", "race_lost") and "concurrent" in lost["detail"], lost


def given(db, make: Callable[[Store], object]) -> tuple[object, object]:
    tenant = new_tenant(db)
    return tenant, make(Store(db, tenant=tenant.name, embedder=None, _owns_db=False))


def test_two_concurrent_successions_of_one_fact_one_wins_the_other_is_told_it_lost(live_server, neo4j_db):
    tenant, alice = given(neo4j_db, lambda s: s.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01"))
    path = f"/v1/facts/{alice.fact_id}/succeed"
    answers = race(neo4j_db, tenant.name, live_server.url, tenant.headers,
                   [(path, {"object": "Bob", "at": "2024-06-01"}), (path, {"object": "Carol", "at": "2024-06-01"})])
    one_won_one_lost(answers)
    # asked again, knowing the fact ended, the same request is bad input: the refusal names the field
    again = httpx.post(f"{live_server.url}{path}", headers=tenant.headers, json={"object": "Dan", "at": "2024-06-01"})
    assert again.status_code == 422 and again.json()["field"] == "at"


def test_two_concurrent_ends_of_one_fact_one_wins_the_other_is_told_it_lost(live_server, neo4j_db):
    tenant, alice = given(neo4j_db, lambda s: s.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01"))
    path = f"/v1/facts/{alice.fact_id}/end"
    one_won_one_lost(race(neo4j_db, tenant.name, live_server.url, tenant.headers,
                          [(path, {"at": "2024-06-01"}), (path, {"at": "2024-06-01"})]))


def test_a_correction_racing_a_succession_is_told_it_lost(live_server, neo4j_db):
    # whichever lands first, the other no longer fits: a start after the end, or a succession before the start
    tenant, alice = given(neo4j_db, lambda s: s.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01"))
    one_won_one_lost(race(neo4j_db, tenant.name, live_server.url, tenant.headers, [
        (f"/v1/facts/{alice.fact_id}/succeed", {"object": "Bob", "at": "2024-06-01"}),
        (f"/v1/facts/{alice.fact_id}/correct", {"valid_from": "2024-07-01"})]))


def test_two_concurrent_resolutions_against_one_established_value_one_is_told_it_lost(live_server, neo4j_db):
    def disputed(store: Store) -> list[str]:
        store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
        store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
        store.add_fact("Acme", "owned_by", "Carol", valid_from="2024-08-01")
        return [c.conflict_id for c in store.conflicts()]

    tenant, conflicts = given(neo4j_db, disputed)
    assert len(conflicts) == 2
    answers = race(neo4j_db, tenant.name, live_server.url, tenant.headers,
                   [(f"/v1/conflicts/{c}/resolve", {"decision": "succession", "at": "2024-08-01"}) for c in conflicts])
    one_won_one_lost(answers)


def test_two_concurrent_decisions_on_one_conflict_one_is_told_it_lost(live_server, neo4j_db):
    def disputed(store: Store) -> str:
        store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
        store.add_fact("Acme", "owned_by", "Bob", valid_from="2024-08-01")
        return store.conflicts()[0].conflict_id

    tenant, conflict = given(neo4j_db, disputed)
    path = f"/v1/conflicts/{conflict}/resolve"
    answers = race(neo4j_db, tenant.name, live_server.url, tenant.headers,
                   [(path, {"decision": "succession", "at": "2024-08-01"}), (path, {"decision": "reject",
                                                                                    "reason": "wrong"})])
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409] and next(a for a in answers if a.status_code == 409).json()["code"] == "not_current"
