"""The cyclic garbage collector waits while a write works: its full passes over a large cascade's working set cost
a quarter of the write (bench/history/journal.md), and the write's own garbage is freed by reference counting."""

from __future__ import annotations

import gc
import threading

import pytest

from credo.graph.core import collector
from credo.graph.core.collector import paused


@pytest.fixture
def collecting():
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_a_write_works_with_the_collector_paused_and_leaves_it_running(store, collecting):
    seen = []
    store._db.write(lambda tx: seen.append(gc.isenabled()))
    assert seen == [False]
    assert gc.isenabled()


def test_a_write_that_fails_leaves_the_collector_running(store, collecting):
    def broken(tx):
        raise RuntimeError("the work failed")

    with pytest.raises(RuntimeError):
        store._db.write(broken)
    assert gc.isenabled()


def test_overlapping_writes_keep_it_paused_until_the_last_one_leaves(collecting):
    inside, leave = threading.Event(), threading.Event()

    def other():
        with paused():
            inside.set()
            leave.wait(5)

    worker = threading.Thread(target=other)
    worker.start()
    inside.wait(5)
    with paused():
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other write is still working
    leave.set()
    worker.join(5)
    assert gc.isenabled()


def test_an_application_that_turned_the_collector_off_finds_it_off_after_a_write(collecting):
    gc.disable()
    with paused():
        pass
    assert not gc.isenabled()


def test_a_pause_longer_than_its_bound_lets_the_collector_run_for_the_writes_still_working(collecting, monkeypatch):
    # a server whose writes always overlap would otherwise never collect a cycle
    clock = [100.0]
    monkeypatch.setattr(collector, "_now", lambda: clock[0])
    with paused():
        with paused():
            clock[0] += collector.MAX_PAUSE_S + 1
        assert gc.isenabled()  # the inner write left after the bound: the collector runs again
        with paused():
            assert gc.isenabled()  # a write joining a pause that already ended does not pause it again
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()  # the next write alone pauses it afresh
