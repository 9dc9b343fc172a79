"""A read at a past known time is fixed: a write whose known time it covers, still committing when the read came, is
waited for, so a later read at the same point answers the same (DESIGN §2: a past known point reads the same forever).

A write takes its known time when it takes the tenant's clock and commits later; a read at a point between the two
would otherwise miss it and a later re-read see it."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timezone

from credo.graph.core import ledger
from credo.store import Store


def _objects(store: Store, point: datetime) -> list[str]:
    return sorted(f.object_name for f in store.facts(subject="Acme", known_at=point))


def test_a_read_at_a_past_known_time_waits_for_a_write_still_committing_there_so_it_is_never_answered_differently(
        neo4j_db, tenant, monkeypatch):
    store = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False)  # the wall clock: writes and reads share it
    store.add_fact(subject="Acme", predicate="note", object="first", object_is_entity=False, valid_from="2024-01-01")
    # given a write that has taken its known time and has not committed yet
    entered, release = threading.Event(), threading.Event()
    real_finish = ledger.finish

    def finishing_late(tx, tenant_, known):
        entered.set()
        release.wait(30)
        return real_finish(tx, tenant_, known)

    monkeypatch.setattr(ledger, "finish", finishing_late)
    writer = threading.Thread(target=lambda: store.add_fact(
        subject="Acme", predicate="remark", object="second", object_is_entity=False, valid_from="2024-01-01"))
    writer.start()
    assert entered.wait(30)
    time.sleep(0.05)
    point = datetime.now(timezone.utc)  # after that write's known time, before its commit
    # when a read at that point comes while the write is still committing
    answered: list[list[str]] = []
    reader = threading.Thread(target=lambda: answered.append(_objects(store, point)))
    reader.start()
    time.sleep(0.5)
    release.set()
    reader.join(30)
    writer.join(30)
    monkeypatch.setattr(ledger, "finish", real_finish)
    # then it answered what every later read at that point answers: the write is in it
    assert answered == [_objects(store, point)] == [["first", "second"]]


def test_a_settled_point_is_never_taken_by_a_later_write_even_from_a_server_whose_clock_lags(neo4j_db, tenant, clock):
    # given a reader on the wall clock and a writer whose clock lags a year behind, on one tenant
    reader = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False)
    lagging = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    clock.at("2025-01-01")
    lagging.add_fact(subject="Acme", predicate="note", object="first", object_is_entity=False, valid_from="2024-01-01")
    point = datetime.now(timezone.utc)
    # when a read settles a past point after the tenant's last commit, and the lagging server writes after it
    before = _objects(reader, point)
    written = lagging.add_fact(subject="Acme", predicate="remark", object="second", object_is_entity=False,
                               valid_from="2024-01-01")
    # then that write's known time is after the point (not its server's clock), and the point reads the same
    assert written.known_from > point
    assert before == _objects(reader, point) == ["first"]


def test_a_point_one_handle_saw_settled_costs_every_handle_of_its_process_no_clock_query(neo4j_db, tenant,
                                                                                          queries_run):
    # given a process's store (the composition root's) and a caller's handle it gave, and a settled past point
    root = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False)
    caller = root.for_principal(root.principal)
    root.add_fact(subject="Acme", predicate="note", object="first", object_is_entity=False, valid_from="2024-01-01")
    point = datetime.now(timezone.utc)
    first = _objects(root, point)
    assert {"read_clock_last", "await_clock"} & set(queries_run)
    # when the caller's handle reads at that point, and at an older one
    queries_run.clear()
    again = [_objects(caller, point), _objects(caller, datetime(2024, 6, 1, tzinfo=timezone.utc))]
    # then neither touches the tenant's clock: the process remembers the point for every handle it gave
    assert again == [first, []] and first == ["first"]
    assert not {"read_clock_last", "await_clock"} & set(queries_run), queries_run
    # while a store of another process (its own composition root) checks the clock once for the same point
    other = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False)
    assert _objects(other, point) == first and "read_clock_last" in queries_run
