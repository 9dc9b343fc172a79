"""The cyclic garbage collector, paused while a write works.

A 10,000-dependent cascade builds a working set of a few hundred thousand small containers (dependents, paths,
flag rows, report entries) that all stay alive until the write ends; CPython's collector meanwhile runs a few full
passes over everything alive, each of them over that working set: 0.23-0.46 s of a 1.1 s write, measured with
`gc.callbacks` (bench/history/journal.md, 2026-12-02). The write's garbage has no cycles to speak of and is freed
by reference counting when it ends, so the collector waits: the first write to start pauses it, the last to leave
lets it run again. The pause is bounded: writes that keep overlapping (a busy server) let it run again once it has
waited MAX_PAUSE_S, so a cycle is never kept for long. An application that turned the collector off keeps it off.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

# measured: bench/audit_tricks.py --parts cascade on Neo4j 2026.08.1 (2026-12-03, load 10): a rolled-back
# 10,000-dependent end_fact 1.17 s wall / 0.31 s client CPU paused, 1.50 s / 0.48 s not (1.28x / 1.53x)
MAX_PAUSE_S = 5.0

_lock = threading.Lock()
_depth = 0  # writes inside a pause
_since = 0.0  # when the collector was paused
_held = False  # this module turned the collector off and owes turning it on


def _now() -> float:
    return time.monotonic()


@contextmanager
def paused() -> Iterator[None]:
    """Run the block with the cyclic collector paused (see the module docstring for who resumes it, and when)."""
    global _depth, _since, _held
    with _lock:
        _depth += 1
        if _depth == 1 and gc.isenabled():
            gc.disable()
            _held, _since = True, _now()
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _held and (_depth == 0 or _now() - _since > MAX_PAUSE_S):
                gc.enable()
                _held = False
