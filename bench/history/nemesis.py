"""The nemesis of a history run: it kills a `credo serve` process, or the Neo4j process, with SIGKILL at random
moments and starts it again after a pause, recording each fault (kind, target, killed at, back at).

`serve` faults kill one of the two servers (a `ServeProcess`, ops/serve_process.py) and restart it on the same
port; `neo4j` faults kill the private local Neo4j (`LocalNeo4j`; never one given by NEO4J_URI) and start it again on
the same data (recovery replays its logs).
The kinds alternate (in a shuffled order unless `shuffle` is off), so any two consecutive faults are one of each kind.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone

from credo.ops.serve_process import ServeProcess


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Fault:
    """One injected fault: what was killed, when, and when it answered again (None: it never did)."""

    kind: str  # serve | neo4j
    target: str  # the server's URL, or the Neo4j pid
    killed_at: datetime
    back_at: datetime | None = None


class Nemesis(threading.Thread):
    """Faults at random moments: the gap from one fault's kill to the next is uniform in `gap_s` (seconds, at least
    the time the victim took to come back); each victim is started again
    after a pause uniform in `pause_s`. No fault starts after `until` (a monotonic deadline)."""

    def __init__(self, servers: list[ServeProcess], neo4j, stop: threading.Event, *, seed: int,
                 gap_s: tuple[float, float] = (20.0, 60.0), pause_s: tuple[float, float] = (1.0, 5.0),
                 kinds: tuple[str, ...] = ("serve", "neo4j"), first_s: float | None = None,
                 until: float | None = None, shuffle: bool = True, log=print) -> None:
        super().__init__(name="nemesis", daemon=True)
        self.servers, self.neo4j, self.stop = servers, neo4j, stop
        self.rng = random.Random(seed * 7 + 1)
        self.gap_s, self.pause_s, self.first_s, self.until = gap_s, pause_s, first_s, until
        self.shuffle = shuffle
        self.kinds = tuple(k for k in kinds if k != "neo4j" or neo4j is not None)
        self.faults: list[Fault] = []
        self.busy = threading.Event()  # set while a victim is down
        self.error: BaseException | None = None
        self.log = log

    def run(self) -> None:
        order: list[str] = []
        gap = self.first_s if self.first_s is not None else self.rng.uniform(*self.gap_s)
        try:
            while self.kinds and not self.stop.wait(gap):
                if self.until is not None and time.monotonic() > self.until:
                    return
                if not order:
                    order = self.rng.sample(self.kinds, len(self.kinds)) if self.shuffle else list(self.kinds)
                began = time.monotonic()
                self.inject(order.pop(0))
                gap = max(0.0, self.rng.uniform(*self.gap_s) - (time.monotonic() - began))
        except BaseException as exc:  # reported by the run, which then fails
            self.error = exc

    def inject(self, kind: str) -> Fault:
        """Kill one victim of `kind` now, start it again after the pause; the fault as recorded."""
        self.busy.set()
        try:
            if kind == "serve":
                victim = self.rng.choice(self.servers)
                fault = Fault("serve", victim.url, utcnow())
                victim.kill()
                self.faults.append(fault)
                self.log(f"nemesis: killed credo serve {victim.url} (-9)")
                time.sleep(self.rng.uniform(*self.pause_s))
                victim.start()
            else:
                pid = self.neo4j.pid()
                fault = Fault("neo4j", str(pid), utcnow())
                os.kill(pid, signal.SIGKILL)
                self.faults.append(fault)
                self.log(f"nemesis: killed Neo4j pid {pid} (-9)")
                for _ in range(100):
                    if self.neo4j.pid() is None:
                        break
                    time.sleep(0.1)
                time.sleep(self.rng.uniform(*self.pause_s))
                self.neo4j.start()
            fault.back_at = utcnow()
            self.log(f"nemesis: {kind} back after {(fault.back_at - fault.killed_at).total_seconds():.1f} s")
            return fault
        finally:
            self.busy.clear()
